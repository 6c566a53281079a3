import { data, redirect } from "react-router";
import type { Route } from "./+types/form-fill";
import { BackLink } from "~/components/back-link";
import { getDb } from "~/db/client.server";
import { FORMS_PATH } from "~/domain/forms";
import { FormRenderer, SAVE_INTENT } from "~/features/forms/components/form-renderer";
import { patientFormPdfPath } from "~/features/forms/form-paths";
import { formFillPage, saveFormDraft, submitForm } from "~/features/forms/form-service.server";
import { clientIp } from "~/lib/client-ip.server";
import { isAppError } from "~/lib/base/errors";
import { requireUser } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = ({ loaderData: page }) => [
  { title: `${page?.definition.title ?? "Formulario"} | Río Clínica` },
  { name: "robots", content: "noindex" },
];

function notFound(error: unknown): never {
  if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
  throw error;
}

/** GET /paciente/formularios/:assignmentId — one of the session's own forms; another patient's id is a 404. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  try {
    return await formFillPage(await getDb(), user.id, args.params.assignmentId);
  } catch (error) {
    notFound(error);
  }
}

/** 'Guardar y continuar después' keeps a draft; 'Enviar formulario' validates, signs into a PDF and completes. */
export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const { intent, ...answers } = await readForm(args.request);
  const db = await getDb();
  try {
    if (intent === SAVE_INTENT) {
      const saved = await saveFormDraft(db, user.id, args.params.assignmentId, answers);
      return data({ savedAt: saved.savedAt, errors: {} as Record<string, string>, message: null });
    }
    const result = await submitForm(db, user.id, args.params.assignmentId, answers, {
      ip: clientIp(args.request),
      userAgent: args.request.headers.get("user-agent"),
    });
    if (result.ok) return redirect(`${FORMS_PATH}?enviado=1`);
    return data({ savedAt: null, errors: result.errors, message: result.message }, { status: 400 });
  } catch (error) {
    notFound(error);
  }
}

// pb-32: the chat launcher is fixed at the bottom of the screen; the form's buttons must scroll clear of it on a phone.
export default function FormFillRoute({ loaderData, actionData }: Route.ComponentProps) {
  const page = loaderData;
  const savedAt = actionData?.savedAt ?? page.draftSavedAt;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-10 pb-32">
      <BackLink to={FORMS_PATH}>Mis formularios</BackLink>
      <h1 className="mt-4 text-3xl font-bold">{page.definition.title}</h1>
      <p className="mt-2 text-slate-700">
        Para su cita de {page.appointment.treatment}, {page.appointment.date} a las {page.appointment.time}{" "}
        hrs.
      </p>
      {page.completed && (
        <p className="mt-4 rounded-xl bg-emerald-50 p-4 text-emerald-900 ring-1 ring-emerald-200">
          Ya envió este formulario el {page.completed.when}.{" "}
          <a href={patientFormPdfPath(page.completed.submissionId)}>Descargar el PDF</a>. Si algo cambió,
          puede enviar una nueva versión: la anterior se conserva.
        </p>
      )}
      {savedAt && (
        <p role="status" className="mt-4 text-sm font-medium text-slate-700" data-testid="draft-saved">
          Borrador guardado el {savedAt}. Puede volver cuando quiera desde Mis formularios.
        </p>
      )}
      {actionData?.message && (
        <p role="alert" className="mt-4 font-medium text-red-700">
          {actionData.message}
        </p>
      )}
      {page.definition.intro && (
        <p className="mt-6 leading-relaxed text-slate-700">{page.definition.intro}</p>
      )}
      <p className="mt-4 text-sm text-slate-600">Las preguntas marcadas con * son obligatorias.</p>
      <div className="mt-8">
        <FormRenderer
          definition={page.definition}
          initial={page.initial}
          serverErrors={actionData?.errors ?? {}}
        />
      </div>
    </div>
  );
}
