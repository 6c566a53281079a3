import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/privacy-incident";
import { ActionMessage, Badge } from "~/components/admin-ui";
import { Button } from "~/components/ui/button";
import { Field, Textarea } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { IncidentFields } from "~/features/privacy/components/incident-fields";
import {
  closeIncident,
  editIncident,
  incidentPage,
  previewIncidentNotice,
  sendIncidentNotice,
  type NoticePreview,
} from "~/features/privacy/incident-service.server";
import { actionFailure, actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { clientIp } from "~/lib/client-ip.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Incidente de seguridad | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const actor = { id: user.id, roles: user.roles, ip: clientIp(args.request) };
  try {
    const page = await incidentPage(await getDb(), actor, args.params.incidentId);
    return { ...page, justRecorded: new URL(args.request.url).searchParams.has("registrado") };
  } catch (error) {
    throw appErrorResult(error, { notFound: "throw" });
  }
}

type IncidentActionResult = ActionResult<{ preview?: NoticePreview & { recipientsInput: string } }>;

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const form = await readForm(args.request);
  const actor = { id: user.id, roles: user.roles, ip: clientIp(args.request) };
  const id = args.params.incidentId;
  const db = await getDb();
  try {
    switch (form.intent) {
      case "save":
        await editIncident(db, actor, id, form);
        return data<IncidentActionResult>(actionSuccess({}, "Cambios guardados."));
      case "close":
        await closeIncident(db, actor, id);
        return data<IncidentActionResult>(actionSuccess({}, "Incidente cerrado."));
      case "preview": {
        const preview = await previewIncidentNotice(db, actor, id, form);
        return data<IncidentActionResult>(
          actionSuccess(
            { preview: { ...preview, recipientsInput: form.recipients ?? "" } },
            "Revisa el aviso y los destinatarios antes de enviarlo.",
          ),
        );
      }
      case "send": {
        const { queued, skipped } = await sendIncidentNotice(db, actor, id, form);
        const already = skipped > 0 ? ` ${skipped} ya habían sido avisadas y no se les envía de nuevo.` : "";
        return data<IncidentActionResult>(
          actionSuccess(
            {},
            `Aviso en cola de envío para ${queued} ${queued === 1 ? "persona" : "personas"}.${already}`,
          ),
        );
      }
      default:
        return data(actionFailure("VALIDATION", "Acción desconocida."), { status: 400 });
    }
  } catch (error) {
    return appErrorResult(error, { notFound: "throw" });
  }
}

function NoticePreviewBox({ preview }: { preview: NoticePreview & { recipientsInput: string } }) {
  const busy = useNavigation().state === "submitting";
  const count = preview.recipients.length;
  return (
    <section aria-labelledby="vista-previa" className="mt-6 rounded-xl bg-slate-50 p-5 ring-1 ring-slate-200">
      <h3 id="vista-previa" className="text-lg font-bold">
        Vista previa del aviso
      </h3>
      <p className="mt-2 text-sm">
        <span className="font-semibold">Asunto:</span> {preview.subject}
      </p>
      <div
        className="mt-3 rounded-lg bg-white p-4 text-sm whitespace-pre-wrap ring-1 ring-slate-200"
        data-testid="notice-preview"
      >
        {preview.text}
      </div>
      <p className="mt-4 text-sm font-semibold">
        Se enviará a {count} {count === 1 ? "persona" : "personas"} por correo electrónico:
      </p>
      <ul className="mt-1 max-h-48 list-disc overflow-y-auto pl-6 text-sm" data-testid="notice-recipients">
        {preview.recipients.map((email) => (
          <li key={email}>{email}</li>
        ))}
      </ul>
      {preview.alreadyNotified.length > 0 && (
        <p className="mt-3 text-sm text-slate-700">
          Ya avisadas (no se repite el envío): {preview.alreadyNotified.join(", ")}
        </p>
      )}
      {preview.invalid.length > 0 && (
        <p className="mt-3 text-sm font-medium text-red-800">
          No son correos válidos y se omiten: {preview.invalid.join(", ")}
        </p>
      )}
      {count > 0 && (
        <Form method="post" className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="send" />
          <input type="hidden" name="noticeText" value={preview.text} />
          <input type="hidden" name="recipients" value={preview.recipientsInput} />
          <label className="flex items-start gap-2 text-sm font-medium text-slate-800">
            <input type="checkbox" name="confirmed" required className="mt-1 size-4 accent-brand-700" />
            Revisé el texto y los destinatarios
          </label>
          <Button type="submit" disabled={busy}>
            Enviar aviso a {count} {count === 1 ? "persona" : "personas"}
          </Button>
        </Form>
      )}
    </section>
  );
}

export default function PrivacyIncident({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const result = actionData as IncidentActionResult | undefined;
  const preview = result?.ok ? result.data.preview : undefined;
  const open = loaderData.status === "open";
  return (
    <>
      <p>
        <Link to="/admin/privacidad/incidentes" className="text-sm text-brand-700 underline">
          Volver al registro de incidentes
        </Link>
      </p>
      <h1 className="mt-4 flex flex-wrap items-center gap-3 text-3xl font-bold">
        {loaderData.values.title}
        <Badge tone={open ? "info" : "neutral"} size="md">
          {loaderData.statusLabel}
        </Badge>
      </h1>
      {loaderData.justRecorded && !result && (
        <p
          role="status"
          className="mt-4 rounded-lg bg-brand-50 p-3 text-sm font-medium text-brand-900 ring-1 ring-brand-100"
        >
          Incidente registrado.
        </p>
      )}
      <div className="mt-6">
        <ActionMessage result={result as ActionResult | undefined} />
      </div>

      <section aria-labelledby="datos-incidente" className="max-w-3xl">
        <h2 id="datos-incidente" className="text-2xl font-bold">
          Datos del incidente
        </h2>
        {open ? (
          <Form method="post" className="mt-4 space-y-6">
            <input type="hidden" name="intent" value="save" />
            <IncidentFields values={loaderData.values} />
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={busy}>
                Guardar cambios
              </Button>
            </div>
          </Form>
        ) : (
          <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-[14rem_1fr]">
            <dt className="font-semibold">Descripción</dt>
            <dd className="whitespace-pre-wrap">{loaderData.values.description}</dd>
            <dt className="font-semibold">Datos afectados</dt>
            <dd>{loaderData.values.dataCategories}</dd>
            <dt className="font-semibold">Medidas</dt>
            <dd className="whitespace-pre-wrap">{loaderData.values.measures || "—"}</dd>
          </dl>
        )}
      </section>

      <section aria-labelledby="aviso-personas" className="mt-10 max-w-3xl">
        <h2 id="aviso-personas" className="text-2xl font-bold">
          Aviso a las personas afectadas
        </h2>
        {loaderData.mustNotifyPeople && (
          <p className="mt-2 text-sm font-medium text-red-800">
            Involucra datos de salud: la ley exige informar a las personas afectadas.
          </p>
        )}
        <p className="mt-2 text-sm text-slate-700">
          Se envía por correo electrónico, una vez por persona y por incidente. Pega los correos de las
          personas afectadas (uno por línea), revisa la vista previa y confirma el envío.
        </p>
        {loaderData.notices.length > 0 && (
          <p className="mt-2 text-sm" data-testid="notices-sent">
            Avisos enviados: {loaderData.notices.length}
          </p>
        )}
        {open && (
          <Form method="post" className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="preview" />
            <Field label="Texto del aviso">
              {(props) => (
                <Textarea
                  {...props}
                  name="noticeText"
                  rows={12}
                  required
                  maxLength={5000}
                  defaultValue={preview?.text ?? loaderData.noticeText}
                />
              )}
            </Field>
            <Field label="Correos de las personas afectadas" hint="Uno por línea; también se aceptan comas.">
              {(props) => (
                <Textarea
                  {...props}
                  name="recipients"
                  rows={5}
                  required
                  defaultValue={preview?.recipientsInput ?? ""}
                />
              )}
            </Field>
            <Button type="submit" variant="secondary" disabled={busy}>
              Revisar aviso
            </Button>
          </Form>
        )}
        {preview && <NoticePreviewBox preview={preview} />}
      </section>

      {open && (
        <section aria-labelledby="cerrar-incidente" className="mt-10 max-w-3xl">
          <h2 id="cerrar-incidente" className="text-2xl font-bold">
            Cerrar el incidente
          </h2>
          <p className="mt-2 text-sm text-slate-700">
            Ciérralo cuando esté contenido y se haya informado a quien corresponda. Un incidente cerrado ya no
            se edita y queda en el registro.
          </p>
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="close" />
            <Button type="submit" variant="secondary" disabled={busy}>
              Cerrar incidente
            </Button>
          </Form>
        </section>
      )}
    </>
  );
}
