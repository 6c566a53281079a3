import { Info, TriangleAlert } from "lucide-react";
import { useCallback, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/dialog";
import { cancellationWording } from "~/domain/appointment-policy";
import { cn } from "~/lib/cn";
import type { AppointmentActionResult } from "../appointment-schema";
import type { AppointmentCardData, AppointmentDialogProps } from "./appointment-types";
import { APPOINTMENTS_PATH } from "./booking-dialog";
import { Spinner } from "./slot-pickers";
import { ErrorMessage, SummaryRow } from "./steps";
import { useFetcherResult } from "./use-fetcher-result";

/**
 * 'Cancelar': states the policy before anything happens (24 h or more ahead is free; less than 24 h costs 50% of
 * the treatment). The server decides again with its own clock when the form arrives.
 */
export function CancelDialog({ appointment, onClose, fallbackFocus }: AppointmentDialogProps) {
  return (
    <Modal
      open={appointment !== null}
      onClose={onClose}
      title="Cancelar cita"
      fallbackFocus={fallbackFocus}
      testId="cancel-dialog"
    >
      {appointment && <CancelForm appointment={appointment} onDone={onClose} />}
    </Modal>
  );
}

function CancelForm({ appointment, onDone }: { appointment: AppointmentCardData; onDone: () => void }) {
  const fetcher = useFetcher<AppointmentActionResult>();
  const busy = fetcher.state !== "idle";
  const [error, setError] = useState<string | null>(null);
  const preview = appointment.cancellation;
  const late = preview?.late ?? false;

  const handleResult = useCallback(
    (result: AppointmentActionResult) => {
      if (result.ok) {
        toast.success(result.message);
        onDone();
      } else {
        setError(result.message);
      }
    },
    [onDone],
  );
  useFetcherResult(fetcher, handleResult);

  return (
    <fetcher.Form method="post" action={APPOINTMENTS_PATH}>
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="appointmentId" value={appointment.id} />
      <dl className="divide-y divide-slate-100 rounded-lg bg-slate-50 px-4 py-2">
        <SummaryRow label="Tratamiento">{appointment.treatmentName}</SummaryRow>
        <SummaryRow label="Fecha">{appointment.dateLabel}</SummaryRow>
        <SummaryRow label="Hora">{appointment.time}</SummaryRow>
        <SummaryRow label="Dentista">{appointment.dentistName}</SummaryRow>
      </dl>

      <div
        className={cn(
          "mt-4 flex gap-3 rounded-lg p-4 text-sm ring-1",
          late ? "bg-amber-50 text-amber-950 ring-amber-300" : "bg-sky-50 text-sky-950 ring-sky-200",
        )}
        data-testid="cancellation-policy"
      >
        {late ? (
          <TriangleAlert aria-hidden className="size-5 shrink-0 text-amber-700" />
        ) : (
          <Info aria-hidden className="size-5 shrink-0 text-sky-700" />
        )}
        <div className="space-y-2">
          <p className="font-medium">{preview?.policyText}</p>
          {late && preview && (
            <p>
              Cargo por cancelación: <strong data-testid="cancellation-fee">{preview.feeLabel}</strong>
            </p>
          )}
          {preview && preview.depositLines.length > 0 && (
            <div data-testid="cancellation-deposit" className="space-y-1">
              {preview.depositLines.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </div>
          )}
          <p>{cancellationWording.policy}</p>
        </div>
      </div>

      <ErrorMessage message={error} />

      <div className="mt-5 flex flex-wrap justify-between gap-3">
        <Button type="button" variant="secondary" onClick={onDone} disabled={busy}>
          Volver
        </Button>
        <Button type="submit" variant="accent" disabled={busy}>
          {busy ? <Spinner label="Cancelando..." /> : late ? "Cancelar con cargo" : "Sí, cancelar cita"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
