import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/requests";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { adminActor } from "~/features/admin/admin-actor.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { requestStatuses, requestStatusLabels, type RequestKind } from "~/features/admin/admin-options";
import { ActionMessage, AdminTable, Badge, DateCell, tdClass } from "~/components/admin-ui";
import { changeRequestStatus, listRequests } from "~/features/admin/request-admin-service.server";
import { requireRole } from "~/lib/guards.server";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Solicitudes | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  return listRequests(await getDb(), adminActor(user, args.request), new URL(args.request.url).searchParams);
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const form = await readForm(args.request);
  try {
    const { message } = await changeRequestStatus(await getDb(), adminActor(user, args.request), form);
    return data<ActionResult>(actionSuccess(undefined, message));
  } catch (error) {
    // A row that is gone is the page's 404; the other refusals show above the table.
    return appErrorResult(error, { notFound: "throw" });
  }
}

const filters = [
  { value: null, label: "Todas" },
  ...requestStatuses.map((value) => ({ value, label: requestStatusLabels[value] })),
];

function statusTone(status: string) {
  return status === "new" ? "info" : status === "done" ? "good" : "neutral";
}

/** The per-row form: a select of the three statuses and a submit button. */
function StatusForm({
  kind,
  id,
  reference,
  status,
  busy,
}: {
  kind: RequestKind;
  id: string;
  reference: string;
  status: string;
  busy: boolean;
}) {
  const selectId = `status-${kind}-${id}`;
  return (
    <Form method="post" className="flex items-center gap-2" preventScrollReset>
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="requestId" value={id} />
      <label htmlFor={selectId} className="sr-only">
        Nuevo estado de la solicitud {reference}
      </label>
      <select
        id={selectId}
        name="status"
        defaultValue={status}
        key={status}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
      >
        {requestStatuses.map((value) => (
          <option key={value} value={value}>
            {requestStatusLabels[value]}
          </option>
        ))}
      </select>
      <Button
        type="submit"
        variant="secondary"
        className="px-3 py-1 text-sm"
        disabled={busy}
        aria-label={`Cambiar el estado de la solicitud ${reference}`}
      >
        Cambiar
      </Button>
    </Form>
  );
}

export default function AdminRequests({ loaderData, actionData }: Route.ComponentProps) {
  const { status, limit, callbacks } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const filterLabel = status ? ` en estado «${requestStatusLabels[status]}»` : "";

  return (
    <>
      <h1 className="text-3xl font-bold">Solicitudes</h1>
      <p className="mt-2 text-slate-700">
        Solicitudes de devolución de llamada (/devolver-llamada y el enlace «Necesito hablar con alguien» de
        los recordatorios), de la más reciente a la más antigua. Las solicitudes sobre datos personales
        (/eliminar-datos y Mis Datos) se gestionan, con su plazo legal, en{" "}
        <Link to="/admin/privacidad" className="font-medium text-brand-700 underline">
          Privacidad
        </Link>
        .
      </p>

      <nav aria-label="Filtrar por estado" className="mt-6">
        <ul className="flex flex-wrap gap-2 text-sm">
          {filters.map((filter) => {
            const current = filter.value === status;
            return (
              <li key={filter.label}>
                <Link
                  to={filter.value ? `/admin/solicitudes?estado=${filter.value}` : "/admin/solicitudes"}
                  aria-current={current ? "page" : undefined}
                  className={cn(
                    "block rounded-full px-3 py-1 font-medium ring-1",
                    current
                      ? "bg-brand-700 text-white ring-brand-700"
                      : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50",
                  )}
                >
                  {filter.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      <div className="mt-6">
        <ActionMessage result={actionData} />
      </div>

      <RequestSection
        id="callbacks-heading"
        title={`Devolución de llamada (${callbacks.length})`}
        count={callbacks.length}
        limit={limit}
        filterLabel={filterLabel}
        className="mt-6"
      >
        <AdminTable
          label="Solicitudes de devolución de llamada"
          caption={`Solicitudes de devolución de llamada${filterLabel}`}
          columns={["Nombre", "Teléfono", "Horario preferido", "Motivo", "Recibida", "Estado"]}
          testId="callbacks-table"
        >
          {callbacks.map((request) => (
            <tr key={request.id}>
              <th scope="row" className={`${tdClass} font-medium`}>
                {request.name}
                {request.email && (
                  <div className="mt-1 text-xs font-normal break-all text-slate-600">{request.email}</div>
                )}
              </th>
              <td className={`${tdClass} whitespace-nowrap`}>
                <a href={request.phoneHref} className="text-brand-700 underline">
                  {request.phone}
                </a>
              </td>
              <td className={tdClass}>{request.preferredTimeLabel}</td>
              <td className={`${tdClass} max-w-xs whitespace-pre-line`}>
                {request.reason || "—"}
                <div className="mt-1 text-xs text-slate-600" data-testid="callback-source">
                  Origen: {request.sourceLabel}
                </div>
              </td>
              <td className={tdClass}>
                <DateCell value={request.created} />
              </td>
              <StatusCell kind="callback" request={request} busy={busy} />
            </tr>
          ))}
        </AdminTable>
      </RequestSection>
    </>
  );
}

/** One kind of request: its heading, the table, or a line saying there is none. */
function RequestSection({
  id,
  title,
  count,
  limit,
  filterLabel,
  className,
  children,
}: {
  id: string;
  title: string;
  count: number;
  limit: number;
  filterLabel: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {count === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No hay solicitudes{filterLabel}.</p>
      ) : (
        <div className="mt-3">{children}</div>
      )}
      {count === limit && (
        <p className="mt-2 text-xs text-slate-600">Se muestran las {limit} más recientes.</p>
      )}
    </section>
  );
}

/** A request's status and the form that changes it. */
function StatusCell({
  kind,
  request,
  busy,
}: {
  kind: RequestKind;
  request: { id: string; reference: string; status: string; statusLabel: string };
  busy: boolean;
}) {
  return (
    <td className={`${tdClass} space-y-2`}>
      <Badge tone={statusTone(request.status)}>{request.statusLabel}</Badge>
      <StatusForm
        kind={kind}
        id={request.id}
        reference={request.reference}
        status={request.status}
        busy={busy}
      />
    </td>
  );
}
