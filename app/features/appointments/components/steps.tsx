import { Check } from "lucide-react";
import { useEffect, useRef } from "react";
import { cn } from "~/lib/cn";

/**
 * The step list of a multi-step dialog and the current step's heading. When the step changes, focus moves to the
 * new heading so keyboard and screen-reader users land at the start of the new content.
 */
export function StepHeader({
  steps,
  current,
  headingId,
}: {
  steps: readonly string[];
  current: number;
  headingId: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
  }, [current]);

  return (
    <div>
      <ol aria-label="Pasos" className="flex flex-wrap gap-x-4 gap-y-1 text-xs font-medium text-slate-600">
        {steps.map((step, index) => (
          <li
            key={step}
            aria-current={index === current ? "step" : undefined}
            className={cn(
              "flex items-center gap-1",
              index === current && "text-brand-800",
              index < current && "text-slate-800",
            )}
          >
            <span
              aria-hidden
              className={cn(
                "flex size-5 items-center justify-center rounded-full border text-[0.7rem]",
                index === current && "border-brand-700 bg-brand-700 text-white",
                index < current && "border-brand-700 text-brand-800",
                index > current && "border-slate-400",
              )}
            >
              {index < current ? <Check className="size-3" /> : index + 1}
            </span>
            {step}
          </li>
        ))}
      </ol>
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="mt-4 text-lg font-semibold focus:outline-none"
      >
        Paso {current + 1} de {steps.length}: {steps[current]}
      </h3>
    </div>
  );
}

export function SummaryRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[8.5rem_1fr] gap-2 py-1.5">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm text-ink">{children}</dd>
    </div>
  );
}

export function ErrorMessage({ message }: { message: string | null }) {
  // Always rendered, so the live region exists before the message arrives and is announced.
  return (
    <div
      role="alert"
      className={cn(
        message && "mt-4 rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800 ring-1 ring-red-200",
      )}
    >
      {message}
    </div>
  );
}
