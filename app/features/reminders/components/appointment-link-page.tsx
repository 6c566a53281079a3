import { CalendarCheck2, CalendarX2, CircleAlert, CircleCheck, PhoneCall } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { FormAlert } from "~/components/form-fields";
import { Button } from "~/components/ui/button";
import { formatChileanPhone } from "~/domain/format";
import { useAppData } from "~/lib/app-data";
import type { AppointmentLinkView } from "../appointment-link-types";

const titles: Record<AppointmentLinkView["action"], Record<AppointmentLinkView["state"], string>> = {
  confirm: {
    ready: "Confirma tu cita",
    done: "Cita confirmada",
    used: "Este enlace ya se usó",
    closed: "Tu cita",
    expired: "Enlace vencido",
    invalid: "Enlace no válido",
  },
  cancel: {
    ready: "Cancelar tu cita",
    done: "Cita cancelada",
    used: "Este enlace ya se usó",
    closed: "Tu cita",
    expired: "Enlace vencido",
    invalid: "Enlace no válido",
  },
  callback: {
    ready: "Necesito hablar con alguien",
    done: "Te llamaremos",
    used: "Este enlace ya se usó",
    closed: "Tu cita",
    expired: "Enlace vencido",
    invalid: "Enlace no válido",
  },
};

/**
 * The page of a reminder's 'Confirmar', 'Cancelar' or 'Necesito hablar con alguien' link (ADR 018, ADR 039): the appointment and one button that posts
 * the action; a cancellation shows the policy (and its fee under 24 hours) before the button. Works without
 * JavaScript and without signing in.
 */
export function AppointmentLinkPage({ view }: { view: AppointmentLinkView }) {
  const { clinic } = useAppData();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const title = titles[view.action][view.state];
  const failed = view.state === "invalid" || view.state === "expired";
  const Icon = failed
    ? CircleAlert
    : view.state === "done"
      ? CircleCheck
      : view.action === "confirm"
        ? CalendarCheck2
        : view.action === "callback"
          ? PhoneCall
          : CalendarX2;

  return (
    <section className="mx-auto max-w-xl px-4 py-12" data-testid="appointment-link">
      <title>{`${title} | ${clinic.shortName}`}</title>
      <div className="flex items-center gap-3">
        <Icon aria-hidden className={failed ? "size-8 text-accent" : "size-8 text-brand-700"} />
        <h1 className="text-3xl font-extrabold">{title}</h1>
      </div>

      {view.message && (
        <p
          role="status"
          data-testid="link-message"
          className={
            view.state === "done"
              ? "mt-6 rounded-lg bg-brand-50 p-4 font-medium text-brand-900"
              : "mt-6 rounded-lg bg-slate-100 p-4 font-medium text-slate-800"
          }
        >
          {view.message}
        </p>
      )}

      {view.appointment && (
        <dl
          className="mt-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200"
          data-testid="link-appointment"
        >
          <dt className="font-semibold text-slate-600">Fecha</dt>
          <dd>
            <time dateTime={view.appointment.startsAt}>{view.appointment.date}</time>
          </dd>
          <dt className="font-semibold text-slate-600">Hora</dt>
          <dd>{view.appointment.time}</dd>
          <dt className="font-semibold text-slate-600">Tratamiento</dt>
          <dd>{view.appointment.treatment}</dd>
          <dt className="font-semibold text-slate-600">Dentista</dt>
          <dd>{view.appointment.dentist}</dd>
          <dt className="font-semibold text-slate-600">Estado</dt>
          <dd data-testid="link-status">{view.appointment.statusLabel}</dd>
        </dl>
      )}

      {view.state === "ready" && (
        <Form method="post" className="mt-6 space-y-4">
          {view.action === "callback" && (
            <p className="text-slate-700">
              Un asesor de la clínica te llamará al teléfono de tu cuenta, en horario de atención, para
              conversar sobre esta cita.
            </p>
          )}
          <FormAlert message={view.notice} />
          {view.policy && (
            <p
              data-testid="cancel-policy"
              className={
                view.policy.late
                  ? "rounded-lg bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-200"
                  : "rounded-lg bg-slate-50 p-4 text-slate-800 ring-1 ring-slate-200"
              }
            >
              {view.policy.text}
            </p>
          )}
          {view.policy && <input type="hidden" name="fee" value={String(view.policy.fee)} />}
          <Button
            type="submit"
            variant={view.action === "cancel" ? "accent" : "primary"}
            disabled={busy}
            className="w-full"
          >
            {busy
              ? "Enviando..."
              : view.action === "confirm"
                ? "Confirmar mi cita"
                : view.action === "callback"
                  ? "Pedir que me llamen"
                  : view.policy?.late
                    ? "Cancelar mi cita y aceptar el cargo"
                    : "Cancelar mi cita"}
          </Button>
        </Form>
      )}
      {view.state !== "ready" && <FormAlert message={view.notice} className="mt-6" />}

      <p className="mt-8 text-sm text-slate-600">
        ¿Dudas o quieres cambiar el horario? Llámanos al{" "}
        <a href={`tel:${clinic.phone}`} className="font-medium text-brand-700 underline">
          {formatChileanPhone(clinic.phone)}
        </a>{" "}
        o revisa{" "}
        <Link to="/paciente/citas" className="font-medium text-brand-700 underline">
          Mis Citas
        </Link>
        .
      </p>
    </section>
  );
}
