import { Form, Link } from "react-router";
import type { Route } from "./+types/audit-log";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { adminActor } from "~/features/admin/admin-actor.server";
import { auditLogPage } from "~/features/admin/audit-service.server";
import { accessRegister } from "~/features/clinical-record/record-register.server";
import { validateRut } from "~/domain/rut";
import { AdminTable, DateCell, tdClass } from "~/components/admin-ui";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Auditoría | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const db = await getDb();
  // The clinical-record register, of one patient when ?rut= names a valid RUT (ADR 021).
  const typed = new URL(args.request.url).searchParams.get("rut")?.trim() ?? "";
  const rut = typed ? validateRut(typed) : null;
  const filter = rut?.ok ? rut.rut : undefined;
  return {
    ...(await auditLogPage(db, adminActor(user, args.request))),
    register: {
      rut: typed,
      error: rut && !rut.ok ? rut.message : null,
      entries: rut && !rut.ok ? [] : await accessRegister(db, user, { rut: filter }),
    },
  };
}

function ClinicalRegister({ register }: { register: Route.ComponentProps["loaderData"]["register"] }) {
  return (
    <section aria-labelledby="accesos-fichas" className="mt-10">
      <h2 id="accesos-fichas" className="text-2xl font-bold">
        Accesos a fichas clínicas
      </h2>
      <p className="mt-2 text-slate-700">
        Cada lectura de una ficha (búsqueda, cada lista, cada archivo). La base de datos no permite modificar
        ni borrar este registro.
      </p>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <label className="text-sm font-semibold">
          Filtrar por RUT del paciente
          <input
            name="rut"
            defaultValue={register.rut}
            maxLength={12}
            placeholder="12.345.678-5"
            className="mt-1 block rounded-lg border border-slate-300 px-3 py-2 font-normal"
          />
        </label>
        <button type="submit" className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white">
          Filtrar
        </button>
        {register.rut && (
          <Link to="/admin/auditoria" className="py-2 text-sm text-brand-700 underline">
            Ver todos
          </Link>
        )}
      </Form>
      {register.error && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-800">
          {register.error}
        </p>
      )}
      {register.entries.length === 0 ? (
        <p className="mt-6 text-sm text-slate-600">No hay accesos registrados.</p>
      ) : (
        <div className="mt-6">
          <AdminTable
            label="Accesos a fichas clínicas"
            caption="Accesos a fichas clínicas, del más reciente al más antiguo"
            columns={["Fecha", "Quién", "Paciente", "Lectura", "Motivo", "Resultado", "IP"]}
            testId="record-access-table"
          >
            {register.entries.map((entry) => (
              <tr key={entry.id}>
                <td className={`${tdClass} whitespace-nowrap`}>{entry.when}</td>
                <td className={tdClass}>
                  {entry.who}
                  <div className="mt-1 text-xs text-slate-600">{entry.role}</div>
                </td>
                <td className={`${tdClass} whitespace-nowrap`}>{entry.rut}</td>
                <td className={tdClass}>
                  {entry.resource}
                  {entry.resourceId && ` ${entry.resourceId}`}
                </td>
                <td className={`${tdClass} max-w-xs`}>{entry.reason ?? "—"}</td>
                <td className={tdClass}>{entry.outcome}</td>
                <td className={`${tdClass} font-mono text-xs whitespace-nowrap`}>{entry.ip}</td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}
    </section>
  );
}

export default function AdminAuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, limit, register } = loaderData;
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
      <ClinicalRegister register={register} />
    </>
  );
}
