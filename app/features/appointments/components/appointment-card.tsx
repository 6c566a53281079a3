import {
  BellRing,
  CalendarPlus,
  CalendarX,
  CircleCheck,
  Clock,
  CreditCard,
  Phone,
  RefreshCw,
  UserRound,
} from "lucide-react";
import { useCallback, useId, useRef } from "react";
import { Link, useFetcher, type FetcherWithComponents } from "react-router";
import { toast } from "sonner";
import { buttonClass } from "~/components/ui/button";
import { WAITLIST_PATH } from "~/domain/waitlist";
import { cn } from "~/lib/cn";
import type { AppointmentActionResult } from "../appointment-schema";
import { StatusBadge, StatusIcon } from "./appointment-status";
import type { AppointmentCardData, CardCalendar } from "./appointment-types";
import { APPOINTMENTS_PATH } from "./booking-dialog";
import { Spinner } from "./slot-pickers";
import { useFetcherResult } from "./use-fetcher-result";

const smallButton = "px-3 py-1.5 text-sm";

/** One appointment (every field, and only the actions the policy allows now). */
export function AppointmentCard({
  appointment,
  onReschedule,
  onCancel,
}: {
  appointment: AppointmentCardData;
  onReschedule: (appointment: AppointmentCardData) => void;
  onCancel: (appointment: AppointmentCardData) => void;
}) {
  const titleId = useId();
  const title = useRef<HTMLHeadingElement>(null);
  const { actions } = appointment;
  const confirmFetcher = useFetcher<AppointmentActionResult>();
  const handleConfirmed = useCallback((result: AppointmentActionResult) => {
    if (result.ok) {
      toast.success(result.message);
      // The button is gone now: keep the keyboard user on this card.
      if (!document.activeElement || document.activeElement === document.body) title.current?.focus();
    } else {
      toast.error(result.message);
    }
  }, []);
  useFetcherResult(confirmFetcher, handleConfirmed);
  const payFetcher = useFetcher<AppointmentActionResult>();
  const handlePaid = useCallback((result: AppointmentActionResult) => {
    // A success leaves for Webpay (a redirect); only a refusal comes back here.
    if (!result.ok) toast.error(result.message);
  }, []);
  useFetcherResult(payFetcher, handlePaid);
  const { payment } = appointment;
  const hasActions = actions.confirm || actions.reschedule || actions.cancel || payment !== null;

  return (
    <article
      aria-labelledby={titleId}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="appointment-card"
      data-status={appointment.status}
    >
      <div className="flex flex-wrap items-start gap-3">
        <StatusIcon status={appointment.status} className="mt-0.5" />
        <div className="min-w-0 flex-1">
          <h3 id={titleId} ref={title} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
            {appointment.treatmentName}
          </h3>
          <p className="text-sm text-slate-700">
            <time dateTime={appointment.startsAt}>{appointment.dateLabel}</time>
          </p>
        </div>
        <StatusBadge status={appointment.status} />
      </div>

      <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-2">
        <div className="flex items-center gap-2">
          <dt className="flex items-center">
            <Clock aria-hidden className="size-4 text-slate-500" />
            <span className="sr-only">Hora</span>
          </dt>
          <dd>
            {appointment.time} ({appointment.durationMinutes} min)
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <dt className="flex items-center">
            <UserRound aria-hidden className="size-4 text-slate-500" />
            <span className="sr-only">Dentista</span>
          </dt>
          <dd>{appointment.dentistName}</dd>
        </div>
        {appointment.dentistPhone && (
          <div className="flex items-center gap-2">
            <dt className="flex items-center">
              <Phone aria-hidden className="size-4 text-slate-500" />
              <span className="sr-only">Teléfono del dentista</span>
            </dt>
            <dd>
              <a href={appointment.dentistPhone.href} className="text-brand-700 underline underline-offset-2">
                {appointment.dentistPhone.label}
              </a>
            </dd>
          </div>
        )}
      </dl>

      {(appointment.treatmentDescription ||
        appointment.priceLabel ||
        appointment.notes ||
        appointment.cancellationFeeLabel) && (
        <dl className="mt-3 space-y-1 border-t border-slate-100 pt-3 text-sm text-slate-700">
          {appointment.treatmentDescription && (
            <div>
              <dt className="inline font-medium text-ink">Descripción:</dt>{" "}
              <dd className="inline">{appointment.treatmentDescription}</dd>
            </div>
          )}
          {appointment.priceLabel && (
            <div>
              <dt className="inline font-medium text-ink">Precio estimado:</dt>{" "}
              <dd className="inline">{appointment.priceLabel}</dd>
            </div>
          )}
          {appointment.notes && (
            <div>
              <dt className="inline font-medium text-ink">Notas:</dt>{" "}
              <dd className="inline">{appointment.notes}</dd>
            </div>
          )}
          {appointment.cancellationFeeLabel && (
            <div>
              <dt className="inline font-medium text-ink">Cargo por cancelación:</dt>{" "}
              <dd className="inline">{appointment.cancellationFeeLabel}</dd>
            </div>
          )}
        </dl>
      )}

      {payment?.kind === "pay" && payment.holdUntilLabel && (
        <p className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-amber-300">
          Reservamos este horario hasta las{" "}
          <strong data-testid="hold-deadline">{payment.holdUntilLabel}</strong>. Paga el abono antes para
          confirmar tu cita.
        </p>
      )}
      {payment?.kind === "retry" && (
        <p className="mt-3 rounded-lg bg-slate-50 p-3 text-sm text-slate-800 ring-1 ring-slate-200">
          El pago del abono no se completó y liberamos el horario. Puedes reintentar el pago si sigue libre.
        </p>
      )}

      {(hasActions || actions.rescheduleHint) && (
        <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
          {payment && (
            <CardActionForm
              fetcher={payFetcher}
              intent="pay"
              appointmentId={appointment.id}
              describedBy={titleId}
              icon={CreditCard}
              label={payment.kind === "pay" ? "Pagar abono" : "Reintentar pago"}
              busyLabel="Abriendo Webpay..."
            />
          )}
          {actions.confirm && (
            <CardActionForm
              fetcher={confirmFetcher}
              intent="confirm"
              appointmentId={appointment.id}
              describedBy={titleId}
              icon={CircleCheck}
              label="Confirmar"
              busyLabel="Confirmando..."
            />
          )}
          {actions.reschedule && (
            <button
              type="button"
              aria-haspopup="dialog"
              aria-describedby={titleId}
              onClick={() => onReschedule(appointment)}
              className={buttonClass("secondary", smallButton)}
            >
              <RefreshCw aria-hidden className="size-4" />
              Reprogramar
            </button>
          )}
          {actions.cancel && (
            <button
              type="button"
              aria-haspopup="dialog"
              aria-describedby={titleId}
              onClick={() => onCancel(appointment)}
              className={buttonClass("secondary", cn(smallButton, "text-red-800 hover:bg-red-50"))}
            >
              <CalendarX aria-hidden className="size-4" />
              Cancelar
            </button>
          )}
          {actions.cancel && (appointment.status === "scheduled" || appointment.status === "confirmed") && (
            <Link
              to={`${WAITLIST_PATH}?cita=${encodeURIComponent(appointment.id)}`}
              aria-describedby={titleId}
              className={buttonClass("secondary", smallButton)}
              data-testid="waitlist-earlier"
            >
              <BellRing aria-hidden className="size-4" />
              Avísame si hay una hora antes
            </Link>
          )}
          {actions.rescheduleHint && <p className="text-xs text-slate-600">{actions.rescheduleHint}</p>}
        </div>
      )}

      {appointment.calendar && <CalendarLinks calendar={appointment.calendar} describedBy={titleId} />}
    </article>
  );
}

/** 'Agregar al calendario': the .ics file (any calendar app, with its alarm) and the Google and Outlook links. */
function CalendarLinks({ calendar, describedBy }: { calendar: CardCalendar; describedBy: string }) {
  const link = "font-medium text-brand-700 underline underline-offset-2";
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm" data-testid="calendar-links">
      <a
        href={calendar.icsUrl}
        download
        aria-describedby={describedBy}
        className={cn(link, "inline-flex items-center gap-1")}
      >
        <CalendarPlus aria-hidden className="size-4" />
        Agregar al calendario
      </a>
      <a
        href={calendar.googleUrl}
        target="_blank"
        rel="noopener noreferrer"
        aria-describedby={describedBy}
        className={link}
      >
        Google Calendar<span className="sr-only"> (se abre en otra pestaña)</span>
      </a>
      <a
        href={calendar.outlookUrl}
        target="_blank"
        rel="noopener noreferrer"
        aria-describedby={describedBy}
        className={link}
      >
        Outlook<span className="sr-only"> (se abre en otra pestaña)</span>
      </a>
    </div>
  );
}

/**
 * A card's one-button form: 'Confirmar', or 'Pagar abono' / 'Reintentar pago' (the server finds the deposit and
 * answers with a redirect to Webpay). The fetcher lives in the card, not in the button: once confirmed, the
 * revalidated card no longer has the button, and the answer must still reach the toast.
 */
function CardActionForm({
  fetcher,
  intent,
  appointmentId,
  describedBy,
  icon: Icon,
  label,
  busyLabel,
}: {
  fetcher: FetcherWithComponents<AppointmentActionResult>;
  intent: "confirm" | "pay";
  appointmentId: string;
  describedBy: string;
  icon: typeof CircleCheck;
  label: string;
  busyLabel: string;
}) {
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={APPOINTMENTS_PATH}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="appointmentId" value={appointmentId} />
      <button
        type="submit"
        disabled={busy}
        aria-describedby={describedBy}
        className={buttonClass("primary", smallButton)}
      >
        {busy ? (
          <Spinner label={busyLabel} />
        ) : (
          <>
            <Icon aria-hidden className="size-4" />
            {label}
          </>
        )}
      </button>
    </fetcher.Form>
  );
}
