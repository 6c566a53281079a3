import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/privacy-request-detail";
import { ActionMessage, AdminPanel, AdminTable, Badge, tdClass } from "~/components/admin-ui";
import { TextareaField } from "~/components/form-fields";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { COMPLAINT_BUSINESS_DAYS } from "~/domain/privacy-clock";
import { ADMIN_ROLES } from "~/domain/roles";
import { ClockBadge } from "~/features/privacy/components/clock-badge";
import { actOnRequest } from "~/features/privacy/request-decisions.server";
import { privacyRequestDetail } from "~/features/privacy/request-queries.server";
import { staffActionSchema } from "~/features/privacy/request-schemas";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { isAppError } from "~/lib/base/errors";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { clientIp } from "~/lib/client-ip.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Solicitud de datos personales | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

/** One request: identity, right, data found, clock, actions and history (ADR 037). Admins only. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  try {
    return await privacyRequestDetail(
      await getDb(),
      { id: user.id, roles: user.roles, ip: clientIp(args.request) },
      args.params.id,
    );
  } catch (error) {
    if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const parsed = staffActionSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  try {
    const { message } = await actOnRequest(
      await getDb(),
      { id: user.id, roles: user.roles, ip: clientIp(args.request) },
      args.params.id,
      parsed.data,
    );
    return data<ActionResult>(actionSuccess(undefined, message));
  } catch (error) {
    return appErrorResult(error, { notFound: "throw" });
  }
}

function fieldError(result: ActionResult | undefined, name: string) {
  return result && !result.ok ? result.fieldErrors?.[name]?.[0] : undefined;
}

export default function PrivacyRequestDetail({ loaderData: request, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const result = actionData as ActionResult | undefined;
  const intent = navigation.formData?.get("intent");
  return (
    <>
      <p className="text-sm">
        <Link to="/admin/privacidad" className="text-brand-700 underline">
          Volver a la cola
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">
        {request.rightLabel} <span className="font-mono text-xl text-slate-600">N.º {request.reference}</span>
      </h1>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Badge tone={request.statusTone}>{request.statusLabel}</Badge>
        {request.clock && <ClockBadge clock={request.clock} />}
        {request.extended && <span className="text-sm text-slate-600">Plazo prorrogado</span>}
      </div>

      <div className="mt-6">
        <ActionMessage result={result} />
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <AdminPanel id="person-heading" title="Persona e identidad">
          <dl className="mt-3 space-y-2 text-sm">
            <div>
              <dt className="font-medium">Identidad</dt>
              <dd data-testid="privacy-identity">{request.identity}</dd>
            </div>
            <div>
              <dt className="font-medium">Nombre</dt>
              <dd>{request.name}</dd>
            </div>
            <div>
              <dt className="font-medium">E-mail</dt>
              <dd className="break-all">{request.email ?? "—"}</dd>
            </div>
            <div>
              <dt className="font-medium">Teléfono</dt>
              <dd>{request.phone ?? "—"}</dd>
            </div>
            <div>
              <dt className="font-medium">RUT</dt>
              <dd>{request.rut ?? "—"}</dd>
            </div>
            <div>
              <dt className="font-medium">Origen</dt>
              <dd>
                {request.channelLabel} · recibida el{" "}
                <time dateTime={request.createdIso}>{request.createdLabel}</time>
              </dd>
            </div>
          </dl>
        </AdminPanel>
        <AdminPanel id="request-heading" title="Lo que pide">
          <dl className="mt-3 space-y-2 text-sm">
            <div>
              <dt className="font-medium">Derecho</dt>
              <dd>{request.rightLabel}</dd>
            </div>
            <div>
              <dt className="font-medium">Detalle</dt>
              <dd className="whitespace-pre-line">{request.details || "—"}</dd>
            </div>
            <div>
              <dt className="font-medium">Bloqueo mientras se decide</dt>
              <dd>{request.blockingRequested ? "Sí, pedido por la persona" : "No pedido"}</dd>
            </div>
            {request.extensionReason && (
              <div>
                <dt className="font-medium">Motivo de la prórroga</dt>
                <dd>{request.extensionReason}</dd>
              </div>
            )}
            {request.decisionReason && (
              <div>
                <dt className="font-medium">Decisión</dt>
                <dd className="whitespace-pre-line">{request.decisionReason}</dd>
              </div>
            )}
          </dl>
        </AdminPanel>
      </div>

      <section aria-labelledby="data-heading" className="mt-8">
        <h2 id="data-heading" className="text-xl font-semibold">
          Datos encontrados
        </h2>
        {request.dataFound === null ? (
          <p className="mt-2 text-sm text-slate-600">
            No se buscan datos de una persona que aún no confirma que controla el contacto.
          </p>
        ) : request.dataFound.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No hay datos de esta persona en el portal.</p>
        ) : (
          <div className="mt-3">
            <AdminTable
              label="Datos encontrados por tabla"
              caption="Registros de esta persona por tabla y qué haría una supresión"
              columns={["Datos", "Registros", "En una supresión", "Motivo"]}
              testId="privacy-data-found"
            >
              {request.dataFound.map((row) => (
                <tr key={row.table}>
                  <th scope="row" className={`${tdClass} font-medium`}>
                    {row.label}
                  </th>
                  <td className={tdClass}>{row.rows}</td>
                  <td className={tdClass}>{row.treatmentLabel}</td>
                  <td className={tdClass}>
                    {row.reason ?? "—"}
                    {row.until && ` (hasta ${row.until})`}
                  </td>
                </tr>
              ))}
            </AdminTable>
          </div>
        )}
      </section>

      {(request.actions.decide || request.actions.extend || request.actions.note) && (
        <section aria-labelledby="actions-heading" className="mt-8 space-y-6">
          <h2 id="actions-heading" className="text-xl font-semibold">
            Acciones
          </h2>
          {request.actions.decide && (
            <div className="grid gap-6 lg:grid-cols-3">
              <Form method="post" className="space-y-3 rounded-xl bg-white p-5 ring-1 ring-slate-200">
                <h3 className="font-semibold">Aprobar y ejecutar</h3>
                <p className="text-sm text-slate-700">{request.effect}</p>
                <input type="hidden" name="intent" value="approve" />
                <TextareaField
                  label={
                    request.right === "rectificacion"
                      ? "Qué se corrigió"
                      : "Mensaje para la persona (opcional)"
                  }
                  name="text"
                  rows={3}
                  maxLength={4000}
                  required={request.right === "rectificacion"}
                  error={intent === "approve" ? undefined : fieldError(result, "text")}
                />
                <Button type="submit" disabled={busy}>
                  Aprobar y ejecutar
                </Button>
              </Form>
              <Form method="post" className="space-y-3 rounded-xl bg-white p-5 ring-1 ring-slate-200">
                <h3 className="font-semibold">Aprobar en parte</h3>
                <input type="hidden" name="intent" value="partially_approve" />
                <TextareaField
                  label="Qué se aprobó y por qué no el resto"
                  name="reason"
                  rows={3}
                  maxLength={4000}
                  required
                  hint={`La persona recibe el motivo y su derecho a reclamar ante la Agencia en ${COMPLAINT_BUSINESS_DAYS} días hábiles.`}
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  Aprobar en parte
                </Button>
              </Form>
              <Form method="post" className="space-y-3 rounded-xl bg-white p-5 ring-1 ring-slate-200">
                <h3 className="font-semibold">Rechazar</h3>
                <input type="hidden" name="intent" value="refuse" />
                <TextareaField
                  label="Motivo del rechazo"
                  name="reason"
                  rows={3}
                  maxLength={4000}
                  required
                  hint={`La persona recibe el motivo y su derecho a reclamar ante la Agencia en ${COMPLAINT_BUSINESS_DAYS} días hábiles.`}
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  Rechazar
                </Button>
              </Form>
            </div>
          )}
          <div className="grid gap-6 lg:grid-cols-2">
            {request.actions.extend && (
              <Form method="post" className="space-y-3 rounded-xl bg-white p-5 ring-1 ring-slate-200">
                <h3 className="font-semibold">Prorrogar el plazo (una sola vez, 30 días)</h3>
                <input type="hidden" name="intent" value="extend" />
                <TextareaField
                  label="Motivo de la prórroga (se envía a la persona)"
                  name="reason"
                  rows={3}
                  maxLength={4000}
                  required
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  Prorrogar
                </Button>
              </Form>
            )}
            {request.actions.note && (
              <Form method="post" className="space-y-3 rounded-xl bg-white p-5 ring-1 ring-slate-200">
                <h3 className="font-semibold">Nota interna</h3>
                <input type="hidden" name="intent" value="note" />
                <TextareaField
                  label="Nota (no se envía a la persona)"
                  name="text"
                  rows={3}
                  maxLength={4000}
                  required
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  Agregar nota
                </Button>
              </Form>
            )}
          </div>
        </section>
      )}

      <section aria-labelledby="history-heading" className="mt-8">
        <h2 id="history-heading" className="text-xl font-semibold">
          Historial
        </h2>
        <ol className="mt-3 space-y-3" data-testid="privacy-history">
          {request.events.map((event) => (
            <li key={event.id} className="rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
              <div className="flex flex-wrap justify-between gap-2">
                <span className="font-medium">{event.kindLabel}</span>
                <time dateTime={event.atIso} className="text-slate-600">
                  {event.atLabel}
                </time>
              </div>
              {event.text && <p className="mt-1 whitespace-pre-line text-slate-700">{event.text}</p>}
              <p className="mt-1 text-xs text-slate-600">{event.actor}</p>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
