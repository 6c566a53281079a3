import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/dialog";
import type { AppointmentCardData, AppointmentDialogProps, DayOption } from "./appointment-types";
import { APPOINTMENTS_PATH } from "./booking-dialog";
import { DayAndTimeSteps, Spinner } from "./slot-pickers";
import { ErrorMessage, StepHeader, SummaryRow } from "./steps";
import { useSlotFlow } from "./use-slot-flow";

const STEPS = ["Fecha", "Hora", "Confirmar"] as const;

/** 'Reprogramar': another free time with the same dentist and treatment (date → time → confirm). */
export function RescheduleDialog({
  appointment,
  openDays,
  onClose,
  fallbackFocus,
}: AppointmentDialogProps & { openDays: DayOption[] }) {
  return (
    <Modal
      open={appointment !== null}
      onClose={onClose}
      title="Reprogramar cita"
      description={
        appointment && (
          <>
            {appointment.treatmentName} con {appointment.dentistName}. Ahora: {appointment.dateLabel} a las{" "}
            {appointment.time}.
          </>
        )
      }
      fallbackFocus={fallbackFocus}
      testId="reschedule-dialog"
    >
      {appointment && <RescheduleFlow appointment={appointment} openDays={openDays} onDone={onClose} />}
    </Modal>
  );
}

function RescheduleFlow({
  appointment,
  openDays,
  onDone,
}: {
  appointment: AppointmentCardData;
  openDays: DayOption[];
  onDone: () => void;
}) {
  const { step, go, time, chosenDay, headingId, dayAndTime, error, fetcher, busy } = useSlotFlow({
    dayStep: 0,
    days: openDays,
    slotsFor: { treatment: appointment.treatmentSlug, dentist: appointment.dentistId },
    onDone,
  });

  return (
    <div>
      <StepHeader steps={STEPS} current={step} headingId={headingId} />
      <ErrorMessage message={error} />
      <div className="mt-4">
        <DayAndTimeSteps {...dayAndTime} />
        {step === 2 && chosenDay && time && (
          <fetcher.Form method="post" action={APPOINTMENTS_PATH}>
            <input type="hidden" name="intent" value="reschedule" />
            <input type="hidden" name="appointmentId" value={appointment.id} />
            <input type="hidden" name="date" value={chosenDay.date} />
            <input type="hidden" name="time" value={time} />
            <dl
              className="divide-y divide-slate-100 rounded-lg bg-slate-50 px-4 py-2"
              data-testid="reschedule-summary"
            >
              <SummaryRow label="Tratamiento">{appointment.treatmentName}</SummaryRow>
              <SummaryRow label="Dentista">{appointment.dentistName}</SummaryRow>
              <SummaryRow label="Antes">
                {appointment.dateLabel}, {appointment.time}
              </SummaryRow>
              <SummaryRow label="Nueva fecha">
                {chosenDay.label}, {time}
              </SummaryRow>
            </dl>
            <div className="mt-5 flex flex-wrap justify-between gap-3">
              <Button type="button" variant="secondary" onClick={() => go(1)} disabled={busy}>
                Atrás
              </Button>
              <Button type="submit" disabled={busy}>
                {busy ? <Spinner label="Reprogramando..." /> : "Confirmar cambio"}
              </Button>
            </div>
          </fetcher.Form>
        )}
      </div>
      {step === 1 && (
        <div className="mt-6">
          <Button type="button" variant="secondary" onClick={() => go(0)}>
            Atrás
          </Button>
        </div>
      )}
    </div>
  );
}
