import type { ActionResult } from "~/lib/base/action-result";
import { CheckCircle2, AlertTriangle } from "lucide-react";
import { cn } from "~/lib/cn";

const outcomes = {
  ok: {
    role: "status",
    className: "bg-brand-50 text-brand-900 ring-brand-100",
    testId: "admin-status",
    Icon: CheckCircle2,
  },
  refused: {
    role: "alert",
    className: "bg-red-50 text-red-800 ring-red-200",
    testId: "admin-error",
    Icon: AlertTriangle,
  },
} as const;

/** The outcome of an admin form: a polite status on success, an alert on refusal. */
export function ActionMessage({ result }: { result: ActionResult | undefined }) {
  if (!result) return null;
  const { role, className, testId, Icon } = outcomes[result.ok ? "ok" : "refused"];
  return (
    <p
      role={role}
      className={cn("mb-6 flex items-start gap-2 rounded-lg p-3 text-sm font-medium ring-1", className)}
      data-testid={testId}
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>{result.message}</span>
    </p>
  );
}

/** A date of a table: the ISO instant for `<time dateTime>` and the label formatted on the server. */
export function DateCell({ value }: { value: { iso: string; label: string } }) {
  return (
    <time dateTime={value.iso} className="whitespace-nowrap">
      {value.label}
    </time>
  );
}

export function YesNo({ value }: { value: boolean }) {
  return <span className={value ? "text-brand-800" : "text-slate-600"}>{value ? "Sí" : "No"}</span>;
}

/** The admin tables' badge is the portal's one badge. */
export { Badge } from "~/components/ui/badge";

const tableClass = "min-w-full divide-y divide-slate-200 text-left text-sm";
const thClass = "px-3 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase";
export const tdClass = "px-3 py-2 align-top";

/** A horizontally scrollable, focusable frame for wide tables (keyboard users can scroll it). */
function TableFrame({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard
      tabIndex={0}
      className="overflow-x-auto rounded-xl bg-white ring-1 ring-slate-200"
    >
      {children}
    </div>
  );
}

/** A data table in a scrollable frame: a caption for screen readers, one row of column headings, then `children`. */
export function AdminTable({
  label,
  caption,
  columns,
  testId,
  children,
}: {
  /** The frame's accessible name. */
  label: string;
  caption: React.ReactNode;
  columns: readonly string[];
  testId?: string;
  /** The body's rows. */
  children: React.ReactNode;
}) {
  return (
    <TableFrame label={label}>
      <table className={tableClass} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={thClass}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </TableFrame>
  );
}

/** A card of a detail page, named by its heading. */
export function AdminPanel({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl bg-white p-5 ring-1 ring-slate-200">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
