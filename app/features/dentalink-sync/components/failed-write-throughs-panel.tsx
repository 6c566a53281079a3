import { AlertTriangle, RotateCcw } from "lucide-react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { formatClinicDateTime } from "~/domain/format";
import type { ActionResult } from "~/lib/base/action-result";
import type { FailedWriteThroughView } from "../sync-dto";
import { WRITE_THROUGH_RETRY_INTENT } from "../sync-options";

const writeThroughActions: Record<FailedWriteThroughView["action"], string> = {
  book: "Reserva",
  reschedule: "Cambio de hora",
  cancel: "Cancelación",
};

/**
 * Portal bookings Dentalink did not take (ADR 023): those that failed for good (staff enter them by hand, or fix
 * the cause — e.g. a dentist's link — and retry) and those the outbox is still retrying after a failure.
 */
export function FailedWriteThroughs({ items }: { items: FailedWriteThroughView[] }) {
  return (
    <section
      aria-labelledby="dentalink-writethrough-failed"
      className="rounded-lg border border-red-200 bg-red-50 p-4"
      data-testid="dentalink-writethrough-failed"
    >
      <h3 id="dentalink-writethrough-failed" className="flex items-center gap-2 font-semibold text-red-900">
        <AlertTriangle aria-hidden className="size-4" />
        Citas del portal que no llegaron a Dentalink
      </h3>
      <ul className="mt-2 space-y-3 text-sm text-red-900">
        {items.map((item) => (
          <FailedWriteThrough key={item.id} item={item} />
        ))}
      </ul>
    </section>
  );
}

function FailedWriteThrough({ item }: { item: FailedWriteThroughView }) {
  const fetcher = useFetcher<ActionResult<{ outboxId: string }>>();
  const answer = fetcher.data;
  const who = [item.patientName, item.dentistName ? `con ${item.dentistName}` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <li data-testid="writethrough-item" data-state={item.state} className="rounded-md bg-white/70 p-3">
      <p>
        <strong>{writeThroughActions[item.action]}</strong> del{" "}
        {formatClinicDateTime(new Date(item.startsAt))}
        {who ? ` · ${who}` : ""}
      </p>
      <p className="mt-1 font-medium" data-testid="writethrough-state">
        {item.state === "failed"
          ? "Falló: no se reintentará sola."
          : `Reintentando (intento ${item.attempts} de ${item.maxAttempts})${
              item.nextAttemptAt
                ? `; próximo intento ${formatClinicDateTime(new Date(item.nextAttemptAt))}`
                : ""
            }.`}
      </p>
      <p className="mt-1" data-testid="writethrough-reason">
        {item.reason}
      </p>
      <fetcher.Form method="post" className="mt-2 flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value={WRITE_THROUGH_RETRY_INTENT} />
        <input type="hidden" name="outboxId" value={item.id} />
        <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
          <RotateCcw aria-hidden className="size-4" />
          Reintentar ahora
          <span className="sr-only">
            {" "}
            {writeThroughActions[item.action].toLowerCase()} del{" "}
            {formatClinicDateTime(new Date(item.startsAt))}
          </span>
        </Button>
        {answer && (
          <span role="status" className={answer.ok ? "text-emerald-900" : "text-red-900"}>
            {answer.message}
          </span>
        )}
      </fetcher.Form>
    </li>
  );
}
