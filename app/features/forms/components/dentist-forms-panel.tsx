import { ClipboardList } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import type { DentistFormsOverview } from "../form-dto";
import { staffSubmissionPath } from "../form-paths";

/** The dentist's day view: each upcoming appointment's forms, the missing ones marked, the sent ones readable. */
export function DentistFormsPanel({ overview }: { overview: DentistFormsOverview }) {
  if (overview.appointments.length === 0) return null;
  return (
    <section
      aria-labelledby="formularios-pacientes"
      className="mx-auto max-w-4xl px-4 pb-10"
      data-testid="dentist-forms"
    >
      <h2 id="formularios-pacientes" className="flex items-center gap-2 text-lg font-semibold">
        <ClipboardList aria-hidden className="size-5 text-brand-700" /> Formularios de tus pacientes
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {overview.missing === 0
          ? "Todos los formularios de estos días están completos."
          : overview.missing === 1
            ? "Falta 1 formulario por completar."
            : `Faltan ${overview.missing} formularios por completar.`}{" "}
        Cada lectura de respuestas queda registrada.
      </p>
      <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {overview.appointments.map((appointment) => (
          <li key={appointment.appointmentId} className="px-4 py-3" data-testid="dentist-forms-appointment">
            <p className="font-medium">
              {appointment.patientName}{" "}
              <span className="text-sm font-normal text-slate-600">
                · <span className="first-letter:uppercase">{appointment.day}</span>, {appointment.time}
              </span>
            </p>
            <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {appointment.forms.map((form) => (
                <li key={form.title} className="flex items-center gap-2">
                  {form.submissionId ? (
                    <Link
                      to={staffSubmissionPath(form.submissionId)}
                      className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                    >
                      {form.title} de {appointment.patientName}
                    </Link>
                  ) : (
                    <span>{form.title}</span>
                  )}
                  <Badge tone={form.status === "completado" ? "emerald" : "amber"}>
                    {form.status === "completado" ? "Completo" : "Falta"}
                  </Badge>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
