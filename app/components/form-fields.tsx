import { Field, Input, Select, Textarea } from "~/components/ui/field";
import { cn } from "~/lib/cn";

/** What every labelled field takes besides its control's own attributes; `className` styles the wrapper. */
interface FieldFrame {
  label: string;
  error?: string;
  hint?: string;
  className?: string;
  controlClassName?: string;
}

/** A labelled input with its hint and Spanish error wired for screen readers (ids, aria-invalid, describedby). */
export function InputField({
  label,
  error,
  hint,
  className,
  controlClassName,
  ...input
}: FieldFrame & Omit<React.ComponentProps<"input">, "className">) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(props) => <Input {...props} {...input} className={controlClassName} />}
    </Field>
  );
}

export function TextareaField({
  label,
  error,
  hint,
  className,
  controlClassName,
  ...textarea
}: FieldFrame & Omit<React.ComponentProps<"textarea">, "className">) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(props) => <Textarea {...props} {...textarea} className={controlClassName} />}
    </Field>
  );
}

export function SelectField({
  label,
  error,
  hint,
  className,
  controlClassName,
  ...select
}: FieldFrame & Omit<React.ComponentProps<"select">, "className">) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(props) => <Select {...props} {...select} className={controlClassName} />}
    </Field>
  );
}

/** The red box above a form for a message that belongs to no single field. */
export function FormAlert({ message, className }: { message: string | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className={cn("rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800", className)}>
      {message}
    </p>
  );
}

/** The consent checkbox of the public forms, with its own error line. */
export function ConsentField({
  error,
  children,
  className,
}: {
  error: string | undefined;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <label className="flex items-start gap-3 text-sm text-slate-700">
        <input
          type="checkbox"
          name="consent"
          required
          aria-invalid={error ? true : undefined}
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
        />
        <span>{children}</span>
      </label>
      {error && <p className="mt-1 text-sm font-medium text-red-700">{error}</p>}
    </div>
  );
}
