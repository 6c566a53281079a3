import type { StaffWaitlistDay } from "../waitlist-dto";

/**
 * The waitlist per day for staff (ADR 040): who waits for a time that day (oldest first) and the slots freed that
 * day with their offers. Shared by the dentist's day view and the admin page.
 */
export function WaitlistDays({
  days,
  headingLevel = 3,
  onlyBusyDays = false,
}: {
  days: StaffWaitlistDay[];
  headingLevel?: 2 | 3;
  /** Hide the days with nothing to show. */
  onlyBusyDays?: boolean;
}) {
  const shown = onlyBusyDays ? days.filter((day) => day.entries.length > 0 || day.slots.length > 0) : days;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  if (shown.length === 0) {
    return <p className="mt-3 text-slate-700">Nadie espera una hora en estos días.</p>;
  }
  return (
    <div className="mt-3 space-y-6">
      {shown.map((day) => (
        <section key={day.date} aria-label={`Lista de espera del ${day.heading}`} data-testid="waitlist-day">
          <Heading className="text-lg font-semibold">{day.heading}</Heading>
          {day.entries.length === 0 ? (
            <p className="mt-1 text-sm text-slate-700">Nadie en espera para este día.</p>
          ) : (
            <ol className="mt-2 space-y-1 text-sm">
              {day.entries.map((entry) => (
                <li key={entry.id} data-testid="waitlist-day-entry">
                  <span className="font-medium">{entry.patientName}</span> · {entry.treatment} ·{" "}
                  {entry.dentist} · {entry.dayParts} · {entry.weekdays} · hasta el {entry.until} (en la lista
                  desde el {entry.joined})
                </li>
              ))}
            </ol>
          )}
          {day.slots.length > 0 && (
            <ul className="mt-3 space-y-2 text-sm">
              {day.slots.map((slot) => (
                <li key={slot.id} className="rounded-lg bg-slate-50 p-3" data-testid="waitlist-day-slot">
                  <p>
                    <span className="font-medium">
                      Hora liberada {slot.time} · {slot.dentist}
                    </span>{" "}
                    · {slot.reason} · {slot.statusLabel} · {slot.offers.length}{" "}
                    {slot.offers.length === 1 ? "oferta" : "ofertas"}
                  </p>
                  {slot.offers.length > 0 && (
                    <ul className="mt-1 list-disc pl-5">
                      {slot.offers.map((offer, index) => (
                        <li key={`${slot.id}-${index}`}>
                          {offer.patientName} · tanda {offer.batch} · {offer.sentAt} · {offer.statusLabel}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}

/** The dentist's day view: their waitlist for the week shown (entries for them or any dentist). */
export function DentistWaitlist({ days }: { days: StaffWaitlistDay[] }) {
  return (
    <section
      aria-labelledby="dentist-waitlist"
      className="mx-auto max-w-4xl px-4 pb-10"
      data-testid="dentist-waitlist"
    >
      <h2 id="dentist-waitlist" className="text-2xl font-bold">
        Lista de espera
      </h2>
      <p className="mt-1 text-slate-700">
        Pacientes que esperan que se libere una hora contigo (o con cualquier dentista), y las horas liberadas
        con sus ofertas.
      </p>
      <WaitlistDays days={days} onlyBusyDays />
    </section>
  );
}
