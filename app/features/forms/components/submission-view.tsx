import { Download } from "lucide-react";
import { BackLink } from "~/components/back-link";
import type { SubmissionViewDto } from "../form-dto";
import { staffSubmissionPdfPath } from "../form-paths";

/** A submitted form as staff read it: every visible answer, the signature's presence and the signed PDF. */
export function SubmissionView({ submission }: { submission: SubmissionViewDto }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <BackLink to="/dentista">Volver a mi agenda</BackLink>
      <h1 className="mt-4 text-3xl font-bold">{submission.title}</h1>
      <p className="mt-2 text-slate-700">
        {submission.patientName} · enviado el {submission.submittedAt} · versión {submission.version}
        {submission.supersedes && " · reemplaza una respuesta anterior"}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        Esta lectura quedó registrada en la auditoría de la clínica.
      </p>
      <div className="mt-8 space-y-8">
        {submission.sections.map((section) => (
          <section key={section.title} aria-labelledby={`s-${section.title}`}>
            <h2 id={`s-${section.title}`} className="text-xl font-semibold">
              {section.title}
            </h2>
            <dl className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
              {section.rows.map((row) => (
                <div key={row.label} className="px-4 py-3 sm:grid sm:grid-cols-3 sm:gap-4">
                  <dt className="text-sm font-medium text-slate-700 sm:col-span-2">{row.label}</dt>
                  <dd className="mt-1 font-semibold sm:mt-0" data-testid="answer">
                    {row.answer}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      {submission.hasSignature && (
        <p className="mt-6 text-slate-700">
          El formulario fue firmado por el paciente; la firma está en el PDF.
        </p>
      )}
      <a
        href={staffSubmissionPdfPath(submission.id)}
        className="mt-6 inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline"
      >
        <Download aria-hidden className="size-4" /> Descargar el PDF firmado
      </a>
      <p className="mt-2 text-xs break-all text-slate-600">SHA-256 del PDF: {submission.pdfSha256}</p>
    </div>
  );
}
