import { Form, Link, useNavigation } from "react-router";
import { ActionMessage, AdminTable, Badge, DateCell, tdClass } from "~/components/admin-ui";
import { Button } from "~/components/ui/button";
import type { ActionResult } from "~/lib/base/action-result";
import { cn } from "~/lib/cn";
import { requestStatuses, requestStatusLabels, type RequestKind } from "../admin-options";
import type { RequestsPageDto } from "../request-admin-service.server";

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

/**
 * The call-back requests (/devolver-llamada and a reminder's 'Necesito hablar con alguien'): for admins at
 * /admin/solicitudes and for asesores at /funnel/solicitudes (`basePath`), with the status each can change.
 */
export function CallbackRequestsPage({
  loaderData,
  actionData,
  basePath,
}: {
  loaderData: RequestsPageDto;
  actionData: ActionResult | undefined;
  basePath: string;
}) {
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
        (/eliminar-datos y Mis Datos) las gestiona la administración, con su plazo legal, en Privacidad.
      </p>

      <nav aria-label="Filtrar por estado" className="mt-6">
        <ul className="flex flex-wrap gap-2 text-sm">
          {filters.map((filter) => {
            const current = filter.value === status;
            return (
              <li key={filter.label}>
                <Link
                  to={filter.value ? `${basePath}?estado=${filter.value}` : basePath}
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
