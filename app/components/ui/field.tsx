import { useId } from "react";
import { cn } from "~/lib/cn";

const control =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-ink placeholder:text-slate-500 " +
  "focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-700/30 disabled:bg-slate-100 " +
  "aria-invalid:border-red-700";

interface FieldShellProps {
  /**
   * The control's id, when the form gives its own (a form whose HTML is prepared apart from the page, ADR 055:
   * `useId` answers by the position in the tree it renders in). Otherwise one from `useId`.
   */
  id?: string;
  label: string;
  error?: string;
  hint?: string;
  children: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => React.ReactNode;
  className?: string;
}

/** A label, a control and its Spanish error, wired with ids for screen readers. */
export function Field({ id: ownId, label, error, hint, children, className }: FieldShellProps) {
  const generatedId = useId();
  const id = ownId ?? generatedId;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function Input(props: React.ComponentProps<"input">) {
  return <input {...props} className={cn(control, props.className)} />;
}

export function Textarea(props: React.ComponentProps<"textarea">) {
  return <textarea {...props} className={cn(control, props.className)} />;
}

export function Select(props: React.ComponentProps<"select">) {
  return <select {...props} className={cn(control, "pr-8", props.className)} />;
}
