import { CheckCircle2, ClipboardList, Download } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import type { PatientFormItem, PatientFormsPage } from "../form-dto";
import { formFillPath, patientFormPdfPath } from "../form-paths";

/** /paciente/formularios: what to fill before each upcoming appointment, and what was already sent. */
export function PatientFormsList({ page, sent }: { page: PatientFormsPage; sent: boolean }) {
  return (
    <div className="mx-auto max-w-3xl px-4 pt-10 pb-32">
      <h1 className="text-3xl font-bold">Mis formularios</h1>
      <p className="mt-2 text-slate-700">
        Complete estos formularios antes de su cita: así su dentista conoce su salud y usted llega con todo
        listo.
      </p>
      {sent && (
        <p
          role="status"
          className="mt-6 rounded-xl bg-emerald-50 p-4 text-emerald-900 ring-1 ring-emerald-200"
        >
          Recibimos su formulario. Puede descargar una copia en PDF más abajo.
        </p>
      )}
      <section aria-labelledby="pendientes" className="mt-8">
        <h2 id="pendientes" className="flex items-center gap-2 text-xl font-semibold">
          <ClipboardList aria-hidden className="size-5 text-brand-700" /> Por completar
        </h2>
        {page.pending.length === 0 ? (
          <p className="mt-3 text-slate-600" data-testid="forms-none-pending">
            No tiene formularios pendientes.
          </p>
        ) : (
          <ul className="mt-3 space-y-3">
            {page.pending.map((item) => (
              <FormCard key={item.assignmentId} item={item} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="completados" className="mt-10">
        <h2 id="completados" className="flex items-center gap-2 text-xl font-semibold">
          <CheckCircle2 aria-hidden className="size-5 text-brand-700" /> Enviados
        </h2>
        {page.completed.length === 0 ? (
          <p className="mt-3 text-slate-600">Aún no ha enviado formularios.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {page.completed.map((item) => (
              <FormCard key={item.assignmentId} item={item} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function FormCard({ item }: { item: PatientFormItem }) {
  const done = item.status === "completado";
  return (
    <li className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200" data-testid="form-card">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-lg font-semibold">{item.title}</p>
        <Badge tone={done ? "emerald" : "amber"}>
          {done ? "Enviado" : item.draftSaved ? "Borrador guardado" : "Pendiente"}
        </Badge>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Para su cita de {item.appointment.treatment}, <span>{item.appointment.date}</span> a las{" "}
        {item.appointment.time} hrs.
      </p>
      {done && item.completedAt && <p className="text-sm text-slate-600">Enviado el {item.completedAt}.</p>}
      <div className="mt-3 flex flex-wrap gap-4">
        <Link
          to={formFillPath(item.assignmentId)}
          className="font-semibold text-brand-700 underline-offset-2 hover:underline"
        >
          {done
            ? `Ver o actualizar ${item.title}`
            : item.draftSaved
              ? `Continuar ${item.title}`
              : `Completar ${item.title}`}
        </Link>
        {item.submissionId && (
          <a
            href={patientFormPdfPath(item.submissionId)}
            className="inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            <Download aria-hidden className="size-4" /> Descargar PDF de {item.title}
          </a>
        )}
      </div>
    </li>
  );
}
