import { CircleAlert, UserX } from "lucide-react";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { appointmentStatusTone } from "~/domain/appointment-status";
import type { ActionResult } from "~/lib/base/action-result";
import { cn } from "~/lib/cn";
import type { NoShowDay, NoShowRow } from "../no-show-dto";

/**
 * 'Asistencia': one clinic day's appointments with each patient's no-shows in 12 months, and 'No asistió' /
 * 'Deshacer' (ADR 042). Used by the dentist's agenda (their own) and the admin's day view (every dentist's).
 */
export function NoShowPanel({ day, title = "Asistencia de hoy" }: { day: NoShowDay; title?: string }) {
  const headingId = `asistencia-${day.date}`;
  return (
    <section aria-labelledby={headingId} className="mt-8" data-testid="no-show-panel">
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {day.heading}. Marca «No asistió» cuando el paciente no llegó a una cita que ya comenzó; puedes
        deshacerlo durante el mismo día.
      </p>
      {day.rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">Sin citas este día.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {day.rows.map((row) => (
            <NoShowItem key={row.appointmentId} row={row} actionPath={day.actionPath} />
          ))}
        </ul>
      )}
    </section>
  );
}

function NoShowItem({ row, actionPath }: { row: NoShowRow; actionPath: string }) {
  const fetcher = useFetcher<ActionResult<{ count: number }>>();
  const busy = fetcher.state !== "idle";
  const result = fetcher.data;
  const intent = row.canUndo ? "undo" : row.canMark ? "mark" : null;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-testid="no-show-row">
      <time dateTime={row.startsAt} className="w-14 font-mono text-lg font-semibold">
        {row.time}
      </time>
      <div className="min-w-0 flex-1">
        <p className="font-medium">{row.patientName}</p>
        <p className="text-sm text-slate-600">
          {row.treatment}
          {row.dentistName && (
            <>
              <span aria-hidden> · </span>
              {row.dentistName}
            </>
          )}
        </p>
        <p
          className={cn(
            "mt-0.5 inline-flex items-center gap-1 text-sm",
            row.repeat ? "font-semibold text-red-800" : "text-slate-700",
          )}
          data-testid="no-show-count"
        >
          {row.repeat && <CircleAlert aria-hidden className="size-4" />}
          {row.noShowText}
        </p>
      </div>
      <Badge tone={appointmentStatusTone(row.status)}>{row.statusLabel}</Badge>
      {intent && (
        <fetcher.Form method="post" action={actionPath}>
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="appointmentId" value={row.appointmentId} />
          <Button
            type="submit"
            variant="secondary"
            className="px-3 py-1.5 text-sm"
            disabled={busy}
            aria-label={`${intent === "undo" ? "Deshacer No asistió" : "No asistió"}: ${row.patientName}, ${row.time}`}
          >
            {intent === "mark" && <UserX aria-hidden className="size-4" />}
            {intent === "undo" ? "Deshacer" : "No asistió"}
          </Button>
        </fetcher.Form>
      )}
      {result && !busy && (
        <p
          role={result.ok ? "status" : "alert"}
          className={cn("w-full text-sm font-medium", result.ok ? "text-emerald-800" : "text-red-700")}
        >
          {result.message}
        </p>
      )}
    </li>
  );
}
