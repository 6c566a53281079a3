import { CalendarClock, CircleAlert, CircleCheck } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { SLOT_ALREADY_TAKEN, WAITLIST_PATH } from "~/domain/waitlist";
import { useAppData } from "~/lib/app-data";
import type { OfferPageView, OfferSlotView } from "../waitlist-offer-types";

const titles: Record<OfferPageView["kind"], string> = {
  offer: "Se liberó una hora para ti",
  taken: SLOT_ALREADY_TAKEN,
  claimed: "¡Listo! La hora es tuya",
  closed: "Esta hora ya no se puede tomar",
  "other-user": "Este enlace es de otra persona",
  invalid: "Enlace no válido",
};

function SlotDetails({ slot }: { slot: OfferSlotView }) {
  return (
    <dl
      className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
      data-testid="offer-slot"
    >
      <dt className="font-semibold text-slate-600">Tratamiento</dt>
      <dd>{slot.treatment}</dd>
      <dt className="font-semibold text-slate-600">Dentista</dt>
      <dd>{slot.dentist}</dd>
      <dt className="font-semibold text-slate-600">Fecha</dt>
      <dd>{slot.date}</dd>
      <dt className="font-semibold text-slate-600">Hora</dt>
      <dd>{slot.time}</dd>
    </dl>
  );
}

const box = "mt-6 rounded-lg p-4 font-medium";

/**
 * The page of a waitlist offer's single-use link (ADR 040): the freed slot and 'Tomar esta hora'; once taken by
 * someone else, "Esta hora ya fue tomada" with the next free times. Works without JavaScript.
 */
export function WaitlistOfferPage({ view }: { view: OfferPageView }) {
  const { clinic } = useAppData();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const title = titles[view.kind];
  const failed = view.kind === "invalid" || view.kind === "other-user" || view.kind === "taken";
  const Icon = failed ? CircleAlert : view.kind === "claimed" ? CircleCheck : CalendarClock;

  return (
    <section className="mx-auto max-w-xl px-4 py-12" data-testid="waitlist-offer">
      <title>{`${title} | ${clinic.shortName}`}</title>
      <div className="flex items-center gap-3">
        <Icon
          aria-hidden
          className={failed ? "size-8 shrink-0 text-accent" : "size-8 shrink-0 text-brand-700"}
        />
        <h1 className="text-3xl font-extrabold">{title}</h1>
      </div>

      {view.kind === "invalid" && (
        <p role="status" data-testid="offer-message" className={`${box} bg-slate-100 text-slate-800`}>
          Este enlace no es válido. Revisa que esté completo o entra a tu lista de espera desde Mis Citas.
        </p>
      )}

      {view.kind === "other-user" && (
        <p role="status" data-testid="offer-message" className={`${box} bg-slate-100 text-slate-800`}>
          La sesión abierta es de otra cuenta. Cierra la sesión o abre el enlace en el teléfono de quien lo
          recibió.
        </p>
      )}

      {view.kind === "offer" && (
        <>
          <p className="mt-4 text-slate-700">
            Estás en nuestra lista de espera y se liberó esta hora. Se la queda la primera persona que la
            tome.
          </p>
          <SlotDetails slot={view.slot} />
          {view.keepsAppointment && (
            <p className={`${box} bg-slate-100 text-slate-800`} data-testid="offer-keeps">
              Tu cita del {view.keepsAppointment} seguirá agendada. Si ya no la necesitas, cancélala desde Mis
              Citas.
            </p>
          )}
          {view.notice && (
            <p role="alert" data-testid="offer-message" className={`${box} bg-red-50 text-red-900`}>
              {view.notice}
            </p>
          )}
          {view.signInFirst ? (
            <p className="mt-6">
              <Link
                to={view.signInFirst.href}
                className="inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-5 font-semibold text-white"
              >
                Inicia sesión para tomar esta hora
              </Link>
            </p>
          ) : (
            <Form method="post" className="mt-6">
              <Button type="submit" disabled={busy} className="min-h-11">
                {busy ? "Tomando la hora…" : "Tomar esta hora"}
              </Button>
            </Form>
          )}
        </>
      )}

      {view.kind === "claimed" && (
        <>
          <p role="status" data-testid="offer-message" className={`${box} bg-brand-50 text-brand-900`}>
            Tu cita quedó agendada. Te enviamos la confirmación.
          </p>
          <SlotDetails slot={view.slot} />
          {view.keepsAppointment && (
            <p className={`${box} bg-slate-100 text-slate-800`} data-testid="offer-keeps">
              Tu cita del {view.keepsAppointment} sigue agendada. Si ya no la necesitas, cancélala desde Mis
              Citas.
            </p>
          )}
          <p className="mt-6">
            <Link to="/paciente/citas" className="font-semibold text-brand-700 underline">
              Ver Mis Citas
            </Link>
          </p>
        </>
      )}

      {view.kind === "taken" && (
        <>
          <p role="status" data-testid="offer-message" className={`${box} bg-slate-100 text-slate-800`}>
            {SLOT_ALREADY_TAKEN}. Otra persona la tomó antes.
          </p>
          <SlotDetails slot={view.slot} />
          <h2 className="mt-8 text-xl font-bold">Próximas horas libres</h2>
          {view.nextTimes.length > 0 ? (
            <ul className="mt-3 space-y-1" data-testid="offer-next-times">
              {view.nextTimes.map((next) => (
                <li key={`${next.date}-${next.time}`}>
                  {next.date}, {next.time}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-3 text-slate-700">No hay horas libres en los próximos días.</p>
          )}
          <p className="mt-3">
            <Link to="/paciente/citas" className="font-semibold text-brand-700 underline">
              Agendar una de estas horas en Mis Citas
            </Link>
          </p>
          {view.stillOnList && (
            <p className={`${box} bg-brand-50 text-brand-900`} data-testid="offer-still-on-list">
              Sigues en la lista de espera: te avisaremos si se libera otra hora. Puedes salir de ella cuando
              quieras en{" "}
              <Link to={WAITLIST_PATH} className="underline">
                tu lista de espera
              </Link>
              .
            </p>
          )}
        </>
      )}

      {view.kind === "closed" && (
        <>
          <p role="status" data-testid="offer-message" className={`${box} bg-slate-100 text-slate-800`}>
            Faltan menos de dos horas para esta hora o ya no estás en la lista de espera.
          </p>
          <SlotDetails slot={view.slot} />
        </>
      )}
    </section>
  );
}
