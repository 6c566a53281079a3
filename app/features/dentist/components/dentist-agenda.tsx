import { CalendarDays, Clock } from "lucide-react";
import { cn } from "~/lib/cn";
import { Badge } from "~/components/ui/badge";
import { appointmentStatusTone, isInactiveAppointment } from "~/domain/appointment-status";
import { daysPhrase } from "~/domain/policy-wording";
import type { AgendaAppointment, DentistAgenda as Agenda } from "../agenda-dto";
import { AGENDA_DAYS } from "../agenda-window";

export function DentistAgenda({ agenda, dentistName }: { agenda: Agenda; dentistName: string }) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <header>
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Agenda</p>
        <h1 className="mt-1 text-3xl font-bold">Hola, {dentistName}</h1>
        <p className="mt-2 text-slate-700">
          Tus citas de hoy y de los próximos {daysPhrase(AGENDA_DAYS - 1)} (hora de Santiago).{" "}
          {agenda.total > 0 && (
            <span data-testid="agenda-total">
              {agenda.total === 1 ? "1 cita en total." : `${agenda.total} citas en total.`}
            </span>
          )}
        </p>
      </header>

      {agenda.total === 0 ? (
        <div className="mt-10 rounded-2xl border border-dashed border-slate-300 p-10 text-center">
          <CalendarDays aria-hidden className="mx-auto size-10 text-slate-400" />
          <p className="mt-3 text-lg font-medium text-slate-700">
            No tienes citas en los próximos {daysPhrase(AGENDA_DAYS)}.
          </p>
        </div>
      ) : (
        <div className="mt-8 space-y-8">
          {agenda.days.map((day) => (
            <section key={day.date} aria-labelledby={`dia-${day.date}`}>
              <h2 id={`dia-${day.date}`} className="flex items-center gap-2 text-lg font-semibold">
                {day.heading}
                {day.isToday && (
                  <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">
                    Hoy
                  </span>
                )}
              </h2>
              {day.appointments.length === 0 ? (
                <p className="mt-2 text-sm text-slate-600">Sin citas este día.</p>
              ) : (
                <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
                  {day.appointments.map((appointment) => (
                    <AppointmentRow key={appointment.id} appointment={appointment} />
                  ))}
                </ul>
              )}
            </section>
          ))}
        </div>
      )}
    </div>
  );
}

function AppointmentRow({ appointment }: { appointment: AgendaAppointment }) {
  const inactive = isInactiveAppointment(appointment.status);
  return (
    <li
      className={cn("flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3", inactive && "bg-slate-50")}
      data-testid="agenda-appointment"
    >
      <time
        dateTime={appointment.startsAt}
        className={cn("w-14 font-mono text-lg font-semibold", inactive && "text-slate-500 line-through")}
      >
        {appointment.time}
      </time>
      <div className={cn("min-w-0 flex-1", inactive && "text-slate-500")}>
        <p className={cn("font-medium", inactive && "line-through")}>{appointment.patientName}</p>
        <p className="text-sm text-slate-600">
          {appointment.treatment}
          <span aria-hidden> · </span>
          <span className="inline-flex items-center gap-1">
            <Clock aria-hidden className="size-3.5" />
            {appointment.durationMinutes} min
          </span>
        </p>
      </div>
      <Badge tone={appointmentStatusTone(appointment.status)}>{appointment.statusLabel}</Badge>
    </li>
  );
}
