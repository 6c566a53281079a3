import { Form, Link } from "react-router";
import { ProcessorsList } from "~/features/privacy/components/processors-list";
import type { Route } from "./+types/privacy-requests";
import { AdminTable, Badge, tdClass } from "~/components/admin-ui";
import { SelectField } from "~/components/form-fields";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { privacyRights } from "~/domain/privacy";
import { rightLabels } from "~/domain/privacy-requests";
import { ADMIN_ROLES } from "~/domain/roles";
import { ClockBadge } from "~/features/privacy/components/clock-badge";
import { privacyQueue } from "~/features/privacy/request-queries.server";
import { clientIp } from "~/lib/client-ip.server";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Privacidad | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

/**
 * The clinic's queue of data-subject requests with the legal clock (ADR 037), the nearest due date first. Admins
 * only: an asesor does not read these requests (identity, erasure wishes and health context are not needed for
 * leads).
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  return privacyQueue(
    await getDb(),
    { id: user.id, roles: user.roles, ip: clientIp(args.request) },
    new URL(args.request.url).searchParams,
  );
}

const statusFilters = [
  { value: "abiertas", label: "Abiertas" },
  { value: "por_confirmar", label: "Por confirmar" },
  { value: "cerradas", label: "Cerradas" },
  { value: "todas", label: "Todas" },
] as const;

export default function PrivacyQueue({ loaderData }: Route.ComponentProps) {
  const { filter, requests, counts, limit } = loaderData;
  return (
    <>
      <h1 className="text-3xl font-bold">Privacidad: solicitudes de derechos</h1>
      <p className="mt-2 max-w-3xl text-slate-700">
        Solicitudes de acceso, rectificación, supresión, oposición, portabilidad y bloqueo (Ley 21.719). La
        ley da 30 días corridos desde la recepción para responder, prorrogables una sola vez por 30 días con
        un motivo que se informa a la persona. Ordenadas por fecha de vencimiento.
      </p>
      <p className="mt-3 text-sm font-medium" data-testid="privacy-queue-counts">
        {counts.overdue} {counts.overdue === 1 ? "vencida" : "vencidas"} · {counts.dueThisWeek}{" "}
        {counts.dueThisWeek === 1 ? "vence" : "vencen"} en los próximos 7 días
      </p>

      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3">
        <SelectField label="Estado" name="estado" defaultValue={filter.estado} className="w-44">
          {statusFilters.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </SelectField>
        <SelectField label="Derecho" name="derecho" defaultValue={filter.derecho ?? ""} className="w-64">
          <option value="">Todos</option>
          {privacyRights.map((right) => (
            <option key={right} value={right}>
              {rightLabels[right]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Plazo" name="plazo" defaultValue={filter.plazo ?? ""} className="w-52">
          <option value="">Cualquiera</option>
          <option value="vencidas">Vencidas</option>
          <option value="semana">Vencen en 7 días o antes</option>
        </SelectField>
        <Button type="submit" variant="secondary">
          Filtrar
        </Button>
      </Form>

      <div className="mt-6">
        {requests.length === 0 ? (
          <p className="text-sm text-slate-600">No hay solicitudes con estos filtros.</p>
        ) : (
          <AdminTable
            label="Cola de solicitudes de datos personales"
            caption="Solicitudes de datos personales, por fecha de vencimiento"
            columns={["Plazo", "Solicitud", "Persona", "Estado", "Recibida"]}
            testId="privacy-queue"
          >
            {requests.map((request) => (
              <tr key={request.id}>
                <td className={tdClass}>
                  <ClockBadge clock={request.clock} />
                  {request.extended && <div className="mt-1 text-xs text-slate-600">Prorrogada</div>}
                </td>
                <th scope="row" className={`${tdClass} font-medium`}>
                  <Link to={`/admin/privacidad/${request.id}`} className="text-brand-700 underline">
                    {request.rightLabel}
                  </Link>
                  <div className="mt-1 font-mono text-xs font-normal text-slate-600">
                    N.º {request.reference}
                  </div>
                </th>
                <td className={tdClass}>
                  {request.name}
                  <div className="mt-1 text-xs break-all text-slate-600">{request.contact}</div>
                  <div className="text-xs text-slate-600">{request.channelLabel}</div>
                </td>
                <td className={tdClass}>
                  <Badge tone={request.statusTone}>{request.statusLabel}</Badge>
                </td>
                <td className={tdClass}>
                  <time dateTime={request.createdIso} className="whitespace-nowrap">
                    {request.createdLabel}
                  </time>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
        {requests.length === limit && (
          <p className="mt-2 text-xs text-slate-600">Se muestran las primeras {limit}.</p>
        )}
      </div>

      <p className="mt-8">
        <Link to="/admin/privacidad/incidentes" className="font-medium text-brand-700 underline">
          Registro de incidentes de seguridad
        </Link>
      </p>
      <div className="mt-8">
        <ProcessorsList />
      </div>
    </>
  );
}
