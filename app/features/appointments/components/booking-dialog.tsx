import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Textarea } from "~/components/ui/field";
import { cn } from "~/lib/cn";
import { ANY_DENTIST, NOTES_MAX } from "../appointment-schema";
import type { DayOption, DentistOption, TreatmentOption } from "./appointment-types";
import { Modal } from "./modal";
import { DayAndTimeSteps, Spinner } from "./slot-pickers";
import { ErrorMessage, StepHeader, SummaryRow } from "./steps";
import { useSlotFlow } from "./use-slot-flow";

const STEPS = ["Tratamiento", "Dentista", "Fecha", "Hora", "Confirmar"] as const;

export const APPOINTMENTS_PATH = "/paciente/citas";

interface BookingOptions {
  treatments: TreatmentOption[];
  dentists: DentistOption[];
  openDays: DayOption[];
}

/** 'Agendar Nueva Cita': treatment → dentist (or any) → date → a free time → confirm, in a modal dialog. */
export function BookingDialog({
  open,
  onClose,
  onBooked,
  fallbackFocus,
  ...options
}: BookingOptions & {
  open: boolean;
  onClose: () => void;
  onBooked: () => void;
  fallbackFocus: () => HTMLElement | null;
}) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Agendar nueva cita"
      description="Elige el tratamiento, el dentista, el día y la hora. Te mostramos solo horarios libres."
      fallbackFocus={fallbackFocus}
      size="lg"
      testId="booking-dialog"
    >
      <BookingFlow
        {...options}
        onDone={() => {
          onBooked();
          onClose();
        }}
      />
    </Modal>
  );
}

const radioCard =
  "flex cursor-pointer gap-3 rounded-lg border border-slate-300 p-3 hover:border-brand-700 " +
  "has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 " +
  "has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700";

function BookingFlow({ treatments, dentists, openDays, onDone }: BookingOptions & { onDone: () => void }) {
  const notesId = useId();
  const [treatment, setTreatment] = useState<string | null>(null);
  const [dentist, setDentist] = useState<string>(ANY_DENTIST);

  const chosenTreatment = treatments.find((item) => item.slug === treatment);
  const chosenDentist = dentists.find((item) => item.id === dentist);

  const { step, go, time, setTime, chosenDay, headingId, dayAndTime, error, fetcher, busy } = useSlotFlow({
    dayStep: 2,
    days: openDays,
    slotsFor: { treatment, dentist },
    onDone,
  });

  return (
    <div>
      <StepHeader steps={STEPS} current={step} headingId={headingId} />
      <ErrorMessage message={error} />

      <div className="mt-4">
        {step === 0 && (
          <fieldset>
            <legend className="sr-only">Elige el tratamiento</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {treatments.map((item) => (
                <label key={item.slug} className={radioCard}>
                  <input
                    type="radio"
                    name="treatment"
                    value={item.slug}
                    checked={treatment === item.slug}
                    onChange={() => setTreatment(item.slug)}
                    className="mt-1 size-4 accent-brand-700"
                  />
                  <span>
                    <span className="block font-medium">{item.name}</span>
                    <span className="block text-sm text-slate-700">
                      {item.durationMinutes} min · {item.priceLabel}
                    </span>
                    <span className="block text-sm text-slate-600">{item.description}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        )}

        {step === 1 && (
          <fieldset>
            <legend className="sr-only">Elige el dentista</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {[{ id: ANY_DENTIST, name: "Cualquier dentista disponible" }, ...dentists].map((item) => (
                <label key={item.id} className={radioCard}>
                  <input
                    type="radio"
                    name="dentist"
                    value={item.id}
                    checked={dentist === item.id}
                    onChange={() => {
                      setDentist(item.id);
                      setTime(null);
                    }}
                    className="mt-1 size-4 accent-brand-700"
                  />
                  <span className="font-medium">{item.name}</span>
                </label>
              ))}
            </div>
          </fieldset>
        )}

        <DayAndTimeSteps {...dayAndTime} />

        {step === 4 && chosenTreatment && chosenDay && time && (
          <fetcher.Form method="post" action={APPOINTMENTS_PATH}>
            <input type="hidden" name="intent" value="book" />
            <input type="hidden" name="treatment" value={chosenTreatment.slug} />
            <input type="hidden" name="dentist" value={dentist} />
            <input type="hidden" name="date" value={chosenDay.date} />
            <input type="hidden" name="time" value={time} />
            <dl
              className="divide-y divide-slate-100 rounded-lg bg-slate-50 px-4 py-2"
              data-testid="booking-summary"
            >
              <SummaryRow label="Tratamiento">{chosenTreatment.name}</SummaryRow>
              <SummaryRow label="Dentista">
                {chosenDentist?.name ?? "Cualquier dentista disponible"}
              </SummaryRow>
              <SummaryRow label="Fecha">{chosenDay.label}</SummaryRow>
              <SummaryRow label="Hora">
                {time} ({chosenTreatment.durationMinutes} min)
              </SummaryRow>
              <SummaryRow label="Precio estimado">{chosenTreatment.priceLabel}</SummaryRow>
            </dl>
            <div className="mt-4 space-y-1.5">
              <label htmlFor={notesId} className="block text-sm font-medium text-slate-800">
                Notas para la clínica (opcional)
              </label>
              <Textarea id={notesId} name="notes" rows={2} maxLength={NOTES_MAX} />
            </div>
            <p className="mt-3 text-xs text-slate-600">
              Puedes cancelar sin costo con 24 horas o más de anticipación; con menos de 24 horas se cobra el
              50% del tratamiento.
            </p>
            <div className="mt-5 flex flex-wrap justify-between gap-3">
              <Button type="button" variant="secondary" onClick={() => go(3)} disabled={busy}>
                Atrás
              </Button>
              <Button type="submit" disabled={busy}>
                {busy ? <Spinner label="Agendando..." /> : "Confirmar cita"}
              </Button>
            </div>
          </fetcher.Form>
        )}
      </div>

      {step < 4 && (
        <div
          className={cn(
            "sticky -bottom-6 -mx-6 mt-6 -mb-6 flex flex-wrap gap-3 border-t border-slate-100 bg-white px-6 py-4",
            step > 0 ? "justify-between" : "justify-end",
          )}
        >
          {step > 0 && (
            <Button type="button" variant="secondary" onClick={() => go(step - 1)}>
              Atrás
            </Button>
          )}
          {step < 2 && (
            <Button type="button" onClick={() => go(step + 1)} disabled={step === 0 && !treatment}>
              Siguiente
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
