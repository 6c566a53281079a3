import { ArrowLeft } from "lucide-react";
import { data, Form, isRouteErrorResponse, Link, useNavigation, useRouteError } from "react-router";
import type { Route } from "./+types/user-detail";
import { Button } from "~/components/ui/button";
import { Select } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { professionalTitleOptions } from "~/domain/dentist-name";
import { ADMIN_ROLES } from "~/domain/roles";
import { adminActor } from "~/features/admin/admin-actor.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { isAppError } from "~/lib/base/errors";
import {
  ActionMessage,
  AdminPanel,
  AdminTable,
  Badge,
  DateCell,
  YesNo,
  tdClass,
} from "~/components/admin-ui";
import { applyUserAction, getUserDetail } from "~/features/admin/user-admin-service.server";
import { noShowCountText } from "~/domain/no-shows";
import { noShowCountOf } from "~/features/no-shows/no-show-service.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.user.name || loaderData?.user.email || "Usuario"} | Administración | Río Clínica` },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  try {
    const db = await getDb();
    const detail = await getUserDetail(db, adminActor(user, args.request), args.params.userId);
    // Inasistencias in 12 months (ADR 042), next to the patient's data.
    return { ...detail, noShowCount: await noShowCountOf(db, detail.user.id) };
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") {
      throw data({ message: error.message }, { status: 404 });
    }
    throw error;
  }
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const form = await readForm(args.request);
  try {
    const { message } = await applyUserAction(
      await getDb(),
      adminActor(user, args.request),
      args.params.userId,
      form,
    );
    return data<ActionResult>(actionSuccess(undefined, message));
  } catch (error) {
    // A row that is gone is the page's 404; the other refusals show above the table.
    return appErrorResult(error, { notFound: "throw" });
  }
}

function DataRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2 py-2">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

export default function AdminUserDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { user, roles, grantable, revocable, isSelf, canChangeStatus, history, noShowCount } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const firstGrantable = grantable.find((role) => role.allowed && !role.active);

  return (
    <>
      <Link
        to="/admin"
        className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Volver a usuarios
      </Link>
      <h1 className="mt-3 text-3xl font-bold">
        {user.name || user.email}
        {isSelf && (
          <span className="ml-3 align-middle text-base font-medium text-slate-600">(tu cuenta)</span>
        )}
      </h1>

      <div className="mt-6">
        <ActionMessage result={actionData} />
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <AdminPanel id="user-data" title="Datos">
          <dl className="mt-2 divide-y divide-slate-100">
            <DataRow label="Nombre">{user.firstName || "—"}</DataRow>
            <DataRow label="Apellido">{user.lastName || "—"}</DataRow>
            <DataRow label="E-mail">{user.email}</DataRow>
            <DataRow label="Teléfono">{user.phone ?? "—"}</DataRow>
            <DataRow label="RUT">{user.rut ?? "—"}</DataRow>
            <DataRow label="E-mail verificado">
              <YesNo value={user.emailVerified} />
            </DataRow>
            <DataRow label="2FA">
              <YesNo value={user.twoFactorEnabled} />
            </DataRow>
            <DataRow label="Estado">
              {user.active ? (
                <Badge tone="good">Activo</Badge>
              ) : (
                <>
                  <Badge tone="bad">Desactivado</Badge>
                  {user.deactivated && (
                    <span className="ml-2 text-slate-600">
                      desde el <DateCell value={user.deactivated} />
                    </span>
                  )}
                </>
              )}
            </DataRow>
            <DataRow label="Inasistencias">
              <span data-testid="user-no-shows">{noShowCountText(noShowCount)}</span>
            </DataRow>
            <DataRow label="Sesiones abiertas">{user.activeSessions}</DataRow>
            <DataRow label="Creado">
              <DateCell value={user.created} />
            </DataRow>
            <DataRow label="Actualizado">
              <DateCell value={user.updated} />
            </DataRow>
          </dl>
        </AdminPanel>

        <div className="space-y-6">
          <AdminPanel id="user-roles" title="Roles">
            {roles.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">No tiene roles activos.</p>
            ) : (
              <ul className="mt-3 divide-y divide-slate-100" data-testid="user-roles">
                {roles.map((role) => (
                  <li key={role.name} className="flex items-center justify-between gap-3 py-2">
                    <Badge>{role.label}</Badge>
                    {revocable.includes(role.name) ? (
                      <Form method="post">
                        <input type="hidden" name="role" value={role.name} />
                        <Button
                          type="submit"
                          name="intent"
                          value="revoke"
                          variant="secondary"
                          className="px-3 py-1.5 text-sm"
                          disabled={busy}
                          aria-label={`Revocar el rol ${role.label}`}
                        >
                          Revocar
                        </Button>
                      </Form>
                    ) : (
                      <span className="text-xs text-slate-600">
                        {isSelf && (role.name === "admin" || role.name === "super_admin")
                          ? "No puedes revocar tu propio rol"
                          : "Solo un super administrador"}
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <Form method="post" className="mt-4 flex items-end gap-2 border-t border-slate-100 pt-4">
              <div className="flex-1">
                <label htmlFor="grant-role" className="block text-sm font-medium text-slate-800">
                  Otorgar un rol
                </label>
                <Select
                  id="grant-role"
                  name="role"
                  className="mt-1.5"
                  defaultValue={firstGrantable?.name ?? ""}
                  key={roles.map((role) => role.name).join()}
                >
                  {grantable.map((role) => (
                    <option key={role.name} value={role.name} disabled={!role.allowed || role.active}>
                      {role.label}
                      {role.active ? " (ya lo tiene)" : !role.allowed ? " (solo super administrador)" : ""}
                    </option>
                  ))}
                </Select>
              </div>
              <Button type="submit" name="intent" value="grant" disabled={busy || !firstGrantable}>
                Otorgar
              </Button>
            </Form>
          </AdminPanel>

          {roles.some((role) => role.name === "dentista") && (
            <AdminPanel id="user-title" title="Título profesional">
              <p className="mt-2 text-sm text-slate-700">
                Cómo el portal, los mensajes y los correos nombran a este dentista:{" "}
                <strong data-testid="dentist-display-name">{user.dentistName}</strong>
              </p>
              <Form method="post" className="mt-3 flex items-end gap-2">
                <div className="flex-1">
                  <label htmlFor="professional-title" className="block text-sm font-medium text-slate-800">
                    Título
                  </label>
                  <Select
                    id="professional-title"
                    name="title"
                    className="mt-1.5"
                    defaultValue={user.professionalTitle}
                    key={user.professionalTitle}
                  >
                    {professionalTitleOptions.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </Select>
                </div>
                <Button type="submit" name="intent" value="title" disabled={busy}>
                  Guardar título
                </Button>
              </Form>
            </AdminPanel>
          )}

          <AdminPanel id="user-status" title="Acceso">
            {isSelf ? (
              <p className="mt-2 text-sm text-slate-600">No puedes desactivar tu propia cuenta.</p>
            ) : !canChangeStatus ? (
              <p className="mt-2 text-sm text-slate-600">
                Solo un super administrador puede cambiar el estado de esta cuenta.
              </p>
            ) : user.active ? (
              <Form
                method="post"
                className="mt-2 space-y-3"
                onSubmit={(event) => {
                  if (
                    !window.confirm(
                      `¿Desactivar la cuenta de ${user.name || user.email}? Se cerrarán todas sus sesiones.`,
                    )
                  ) {
                    event.preventDefault();
                  }
                }}
              >
                <p className="text-sm text-slate-700">
                  Desactivar impide iniciar sesión y cierra de inmediato todas las sesiones abiertas de esta
                  cuenta.
                </p>
                <Button type="submit" name="intent" value="deactivate" variant="accent" disabled={busy}>
                  Desactivar cuenta
                </Button>
              </Form>
            ) : (
              <Form method="post" className="mt-2 space-y-3">
                <p className="text-sm text-slate-700">La cuenta está desactivada: no puede iniciar sesión.</p>
                <Button type="submit" name="intent" value="reactivate" disabled={busy}>
                  Reactivar cuenta
                </Button>
              </Form>
            )}
          </AdminPanel>
        </div>
      </div>

      <section aria-labelledby="user-history" className="mt-8">
        <h2 id="user-history" className="text-lg font-semibold">
          Últimos cambios de esta cuenta
        </h2>
        {history.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">Sin cambios registrados.</p>
        ) : (
          <div className="mt-3">
            <AdminTable
              label="Tabla de cambios de la cuenta"
              caption="Últimos cambios registrados sobre esta cuenta"
              columns={["Fecha", "Acción", "Detalle", "Hecho por"]}
            >
              {history.map((entry) => (
                <tr key={entry.id}>
                  <td className={tdClass}>
                    <DateCell value={entry.created} />
                  </td>
                  <td className={tdClass}>{entry.actionLabel}</td>
                  <td className={tdClass}>{entry.detail || "—"}</td>
                  <td className={`${tdClass} break-all`}>{entry.actorEmail ?? "—"}</td>
                </tr>
              ))}
            </AdminTable>
          </div>
        )}
      </section>
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <section className="py-10">
      <h1 className="text-3xl font-bold">
        {status === 404 ? "Usuario no encontrado" : "No se pudo completar"}
      </h1>
      <p className="mt-3 text-slate-700">
        {status === 404
          ? "No encontramos ese usuario. Puede que el enlace esté incompleto."
          : status === 403
            ? "No tienes permiso para ver esta página."
            : "Ocurrió un error. Intenta nuevamente en unos minutos."}
      </p>
      <Link to="/admin" className="mt-6 inline-flex font-medium text-brand-700 underline">
        Volver a usuarios
      </Link>
    </section>
  );
}
