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

type Framed<Props> = FieldFrame & Omit<Props, "className">;

/** A control inside `Field`: label, hint and Spanish error wired for screen readers (id, aria-invalid, describedby). */
function framed<Props extends { className?: string; id?: string }>(
  Control: (props: Props) => React.ReactNode,
) {
  return function FramedControl({
    id,
    label,
    error,
    hint,
    className,
    controlClassName,
    ...control
  }: Framed<Props>) {
    return (
      <Field id={id} label={label} error={error} hint={hint} className={className}>
        {(props) => <Control {...props} {...(control as unknown as Props)} className={controlClassName} />}
      </Field>
    );
  };
}

export const InputField = framed<React.ComponentProps<"input">>(Input);
export const TextareaField = framed<React.ComponentProps<"textarea">>(Textarea);
export const SelectField = framed<React.ComponentProps<"select">>(Select);

export type InputFieldProps = Framed<React.ComponentProps<"input">>;

/** A person's full name (the schemas' `personName`: up to 100 characters). */
export function NameField(props: InputFieldProps) {
  return <InputField name="name" autoComplete="name" maxLength={100} {...props} />;
}

/** A Chilean phone, typed any common way (the schemas parse it). */
export function PhoneField(props: InputFieldProps) {
  return (
    <InputField
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      placeholder="+56 9 1234 5678"
      maxLength={30}
      {...props}
    />
  );
}

export function EmailField(props: InputFieldProps) {
  return <InputField name="email" type="email" autoComplete="email" maxLength={254} {...props} />;
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
