import { Link } from "react-router";
import type { Route } from "./+types/audit-log";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { adminActor } from "~/features/admin/admin-actor.server";
import { auditLogPage } from "~/features/admin/audit-service.server";
import { AdminTable, DateCell, tdClass } from "~/features/admin/components/admin-ui";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Auditoría | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  return auditLogPage(await getDb(), adminActor(user, args.request));
}

export default function AdminAuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, limit } = loaderData;
  return (
    <>
      <h1 className="text-3xl font-bold">Auditoría</h1>
      <p className="mt-2 text-slate-700">
        Los {limit} registros más recientes: cambios hechos por el personal y accesos a datos clínicos. El
        registro no se puede modificar.
      </p>
      {entries.length === 0 ? (
        <p className="mt-6 text-sm text-slate-600">Aún no hay registros.</p>
      ) : (
        <div className="mt-6">
          <AdminTable
            label="Registro de auditoría"
            caption="Registro de auditoría, del más reciente al más antiguo"
            columns={["Fecha", "Actor", "Acción", "Usuario afectado", "Detalle", "IP"]}
            testId="audit-table"
          >
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className={tdClass}>
                  <DateCell value={entry.created} />
                </td>
                <td className={`${tdClass} break-all`}>
                  {entry.actorEmail ?? "—"}
                  {entry.actorRoles && <div className="mt-1 text-xs text-slate-600">{entry.actorRoles}</div>}
                </td>
                <td className={tdClass}>
                  <span title={entry.action}>{entry.actionLabel}</span>
                </td>
                <td className={`${tdClass} break-all`}>
                  {entry.targetUserId ? (
                    <Link
                      to={`/admin/usuarios/${encodeURIComponent(entry.targetUserId)}`}
                      className="text-brand-700 underline"
                    >
                      {entry.targetEmail ?? "(cuenta eliminada)"}
                    </Link>
                  ) : (
                    "—"
                  )}
                </td>
                <td className={`${tdClass} max-w-sm`}>{entry.detail || "—"}</td>
                <td className={`${tdClass} font-mono text-xs whitespace-nowrap`}>{entry.ip ?? "—"}</td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}
    </>
  );
}
