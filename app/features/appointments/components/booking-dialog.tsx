import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/dialog";
import { cancellationWording } from "~/domain/appointment-policy";
import { Textarea } from "~/components/ui/field";
import { cn } from "~/lib/cn";
import { ANY_DENTIST, NOTES_MAX } from "../appointment-schema";
import type { BookingMoneyView, DayOption, DentistOption, TreatmentOption } from "./appointment-types";
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

/** One step's single choice: a group of radio cards named by a legend for screen readers. */
function RadioCards({ legend, children }: { legend: string; children: React.ReactNode }) {
  return (
    <fieldset>
      <legend className="sr-only">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

function RadioCard({
  name,
  value,
  checked,
  onSelect,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  onSelect: () => void;
  children: React.ReactNode;
}) {
  return (
    <label className={radioCard}>
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onSelect}
        className="mt-1 size-4 accent-brand-700"
      />
      {children}
    </label>
  );
}

/**
 * The deposit's terms, shown before the patient leaves for Webpay (Ley 20.584 art. 11: the price, what is paid now,
 * what it is credited to, how long the slot is held and the cancellation terms, all known beforehand).
 */
function DepositTerms({ money }: { money: BookingMoneyView }) {
  return (
    <section
      aria-label="Pago del abono"
      className="mt-3 space-y-2 rounded-lg bg-sky-50 p-4 text-sm text-sky-950 ring-1 ring-sky-200"
      data-testid="booking-deposit"
    >
      <dl className="space-y-1">
        <div className="flex justify-between gap-3">
          <dt>Precio del tratamiento</dt>
          <dd>{money.priceLabel}</dd>
        </div>
        <div className="flex justify-between gap-3 font-semibold">
          <dt>Abono a pagar ahora</dt>
          <dd>{money.depositLabel}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt>Por pagar en la clínica</dt>
          <dd>{money.remainderLabel}</dd>
        </div>
      </dl>
      <p>Se descuenta del valor del tratamiento; el resto se paga en la clínica.</p>
      <p>
        Reservamos el horario por {money.holdMinutes} minutos mientras pagas con Webpay. Si no se completa el
        pago, el horario se libera y no se hace ningún cargo.
      </p>
      <p>{cancellationWording.policy}</p>
      <p>Pagas en el sitio de Webpay (Transbank): los datos de tu tarjeta no pasan por la clínica.</p>
    </section>
  );
}

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
          <RadioCards legend="Elige el tratamiento">
            {treatments.map((item) => (
              <RadioCard
                key={item.slug}
                name="treatment"
                value={item.slug}
                checked={treatment === item.slug}
                onSelect={() => setTreatment(item.slug)}
              >
                <span>
                  <span className="block font-medium">{item.name}</span>
                  <span className="block text-sm text-slate-700">
                    {item.durationMinutes} min · {item.priceLabel}
                  </span>
                  <span className="block text-sm text-slate-600">{item.description}</span>
                </span>
              </RadioCard>
            ))}
          </RadioCards>
        )}

        {step === 1 && (
          <RadioCards legend="Elige el dentista">
            {[{ id: ANY_DENTIST, name: "Cualquier dentista disponible" }, ...dentists].map((item) => (
              <RadioCard
                key={item.id}
                name="dentist"
                value={item.id}
                checked={dentist === item.id}
                onSelect={() => {
                  setDentist(item.id);
                  setTime(null);
                }}
              >
                <span className="font-medium">{item.name}</span>
              </RadioCard>
            ))}
          </RadioCards>
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
              {chosenTreatment.money && (
                <SummaryRow label="Abono">{chosenTreatment.money.depositLabel}</SummaryRow>
              )}
            </dl>
            {chosenTreatment.money && <DepositTerms money={chosenTreatment.money} />}
            {chosenTreatment.depositAtClinic && (
              <p className="mt-3 rounded-lg bg-sky-50 p-3 text-sm text-sky-950 ring-1 ring-sky-200">
                El pago en línea no está disponible; el abono se paga en la clínica.
              </p>
            )}
            <div className="mt-4 space-y-1.5">
              <label htmlFor={notesId} className="block text-sm font-medium text-slate-800">
                Notas para la clínica (opcional)
              </label>
              <Textarea id={notesId} name="notes" rows={2} maxLength={NOTES_MAX} />
            </div>
            <p className="mt-3 text-xs text-slate-600">{cancellationWording.bookingNote}</p>
            <div className="mt-5 flex flex-wrap justify-between gap-3">
              <Button type="button" variant="secondary" onClick={() => go(3)} disabled={busy}>
                Atrás
              </Button>
              <Button type="submit" disabled={busy}>
                {busy ? (
                  <Spinner label={chosenTreatment.money ? "Reservando..." : "Agendando..."} />
                ) : chosenTreatment.money ? (
                  "Pagar abono con Webpay"
                ) : (
                  "Confirmar cita"
                )}
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
