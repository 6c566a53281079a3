import {
  ArrowRight,
  Bot,
  CalendarCheck,
  CalendarDays,
  CalendarPlus,
  Clock,
  History,
  Stethoscope,
  UserRound,
  type LucideIcon,
} from "lucide-react";
import { Link } from "react-router";
import { StatusBadge } from "~/features/appointments/components/appointment-status";
import type { ProfileCompleteness } from "~/domain/profile-completeness";
import { cn } from "~/lib/cn";
import type { NextAppointmentDto } from "../dashboard-dto";

const card = "rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200";

export function NextAppointmentCard({ appointment }: { appointment: NextAppointmentDto | null }) {
  return (
    <section aria-labelledby="next-appointment-title" className={cn(card, "lg:col-span-2")}>
      <h2 id="next-appointment-title" className="flex items-center gap-2 text-xl font-semibold">
        <CalendarCheck aria-hidden className="size-5 text-brand-700" />
        Tu próxima cita
      </h2>
      {appointment ? (
        <div className="mt-4" data-testid="next-appointment">
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-lg font-semibold">{appointment.treatment}</p>
            <StatusBadge status={appointment.status} />
          </div>
          <ul className="mt-3 space-y-2 text-slate-700">
            <li className="flex items-center gap-2">
              <CalendarDays aria-hidden className="size-4 text-slate-500" />
              <span className="first-letter:uppercase">{appointment.date}</span>
            </li>
            <li className="flex items-center gap-2">
              <Clock aria-hidden className="size-4 text-slate-500" />
              {appointment.time} hrs
            </li>
            <li className="flex items-center gap-2">
              <Stethoscope aria-hidden className="size-4 text-slate-500" />
              {appointment.dentist}
            </li>
          </ul>
          <Link
            to="/paciente/citas"
            className="mt-5 inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            Ver mis citas <ArrowRight aria-hidden className="size-4" />
          </Link>
        </div>
      ) : (
        <div className="mt-4" data-testid="next-appointment-empty">
          <p className="font-medium">No tienes citas programadas</p>
          <p className="mt-1 text-slate-600">Agenda tu próxima cita para mantener tu salud dental al día.</p>
          <Link
            to="/paciente/citas"
            className="mt-5 inline-flex items-center gap-2 rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            <CalendarPlus aria-hidden className="size-4" />
            Agendar Cita
          </Link>
        </div>
      )}
    </section>
  );
}

export function AppointmentCounts({ upcoming, history }: { upcoming: number; history: number }) {
  const items = [
    { label: "Próximas citas", value: upcoming, icon: CalendarDays },
    { label: "Citas en tu historial", value: history, icon: History },
  ];
  return (
    <section aria-labelledby="counts-title" className={card}>
      <h2 id="counts-title" className="text-xl font-semibold">
        Resumen
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-4 lg:grid-cols-1">
        {items.map(({ label, value, icon: Icon }) => (
          <div key={label} className="flex flex-col-reverse rounded-xl bg-slate-50 p-4">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="flex items-center gap-2 text-2xl font-bold">
              <Icon aria-hidden className="size-6 text-brand-700" />
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const shortcuts: ReadonlyArray<{ to: string; title: string; text: string; icon: LucideIcon }> = [
  {
    to: "/paciente/citas",
    title: "Mis Citas",
    text: "Agenda, confirma, reprograma o cancela tus citas y revisa tu historial.",
    icon: CalendarDays,
  },
  {
    to: "/paciente/asesor",
    title: "Asesor Virtual",
    text: "Resuelve tus dudas sobre citas, tratamientos y la clínica, a cualquier hora.",
    icon: Bot,
  },
  {
    to: "/paciente/perfil",
    title: "Mi Perfil",
    text: "Mantén al día tus datos de contacto y tu contacto de emergencia.",
    icon: UserRound,
  },
];

export function Shortcuts() {
  return (
    <nav aria-label="Accesos directos">
      <ul className="grid gap-4 md:grid-cols-3">
        {shortcuts.map(({ to, title, text, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="group flex h-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 transition-shadow hover:shadow-md hover:ring-brand-600"
            >
              <span className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <Icon aria-hidden className="size-6" />
              </span>
              <span className="mt-4 text-lg font-semibold">{title}</span>
              <span className="mt-1 flex-1 text-sm text-slate-600">{text}</span>
              <span className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-brand-700">
                Ir a {title}{" "}
                <ArrowRight aria-hidden className="size-4 transition-transform group-hover:translate-x-0.5" />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function ProfileCompletenessCard({ completeness }: { completeness: ProfileCompleteness }) {
  const complete = completeness.percent === 100;
  return (
    <section aria-labelledby="completeness-title" className={card}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="completeness-title" className="text-xl font-semibold">
          Tu perfil está completo al {completeness.percent}%
        </h2>
        <Link
          to="/paciente/perfil"
          className="inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline"
        >
          {complete ? "Ver mi perfil" : "Completar mi perfil"} <ArrowRight aria-hidden className="size-4" />
        </Link>
      </div>
      <div
        role="progressbar"
        aria-labelledby="completeness-title"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={completeness.percent}
        className="mt-4 h-3 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={cn("h-full rounded-full", complete ? "bg-emerald-600" : "bg-brand-700")}
          style={{ width: `${completeness.percent}%` }}
        />
      </div>
      <p className="mt-3 text-sm text-slate-700">
        {complete
          ? "Tenemos todos tus datos de contacto y de emergencia. ¡Gracias!"
          : `Te falta: ${completeness.missing.join(", ")}. Con estos datos podemos avisarte y actuar rápido ante una emergencia.`}
      </p>
    </section>
  );
}
