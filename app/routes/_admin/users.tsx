import { Search } from "lucide-react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/users";
import { buttonClass } from "~/components/ui/button";
import { Input } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { adminActor } from "~/features/admin/admin-actor.server";
import { USERS_PAGE_SIZE } from "~/features/admin/admin-options";
import { AdminTable, Badge, DateCell, YesNo, tdClass } from "~/components/admin-ui";
import { listUsersPage } from "~/features/admin/user-admin-service.server";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Usuarios | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  return listUsersPage(await getDb(), adminActor(user, args.request), new URL(args.request.url).searchParams);
}

function pageHref(query: string, page: number): string {
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (page > 1) params.set("pagina", String(page));
  const search = params.toString();
  return search ? `/admin?${search}` : "/admin";
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { query, page, pageCount, total, users } = loaderData;
  const first = total === 0 ? 0 : (page - 1) * USERS_PAGE_SIZE + 1;
  const last = (page - 1) * USERS_PAGE_SIZE + users.length;
  return (
    <>
      <h1 className="text-3xl font-bold">Usuarios</h1>
      <Form method="get" role="search" className="mt-6 flex max-w-xl items-end gap-2">
        <div className="flex-1">
          <label htmlFor="admin-user-search" className="block text-sm font-medium text-slate-800">
            Buscar por nombre, apellido o e-mail
          </label>
          <Input
            id="admin-user-search"
            type="search"
            name="q"
            defaultValue={query}
            maxLength={100}
            className="mt-1.5"
          />
        </div>
        <button type="submit" className={buttonClass("primary")}>
          <Search aria-hidden className="size-4" />
          Buscar
        </button>
      </Form>

      <p className="mt-6 text-sm text-slate-700" aria-live="polite">
        {total === 0
          ? query
            ? `No hay usuarios que coincidan con «${query}».`
            : "No hay usuarios."
          : `Mostrando ${first}–${last} de ${total} ${total === 1 ? "usuario" : "usuarios"}${query ? ` para «${query}»` : ""}.`}
        {query && (
          <>
            {" "}
            <Link to="/admin" className="font-medium text-brand-700 underline">
              Ver todos
            </Link>
          </>
        )}
      </p>

      {users.length > 0 && (
        <div className="mt-4">
          <AdminTable
            label="Usuarios"
            caption={`Usuarios del portal, página ${page} de ${pageCount}`}
            columns={["Nombre", "E-mail", "Roles", "E-mail verificado", "2FA", "Estado", "Creado"]}
            testId="admin-users-table"
          >
            {users.map((user) => (
              <tr key={user.id} className="hover:bg-slate-50">
                <th scope="row" className={`${tdClass} font-medium`}>
                  <Link
                    to={`/admin/usuarios/${encodeURIComponent(user.id)}`}
                    className="text-brand-700 underline"
                  >
                    {user.name || "(sin nombre)"}
                  </Link>
                </th>
                <td className={`${tdClass} break-all`}>{user.email}</td>
                <td className={tdClass}>
                  {user.roles.length === 0 ? (
                    <span className="text-slate-600">Sin roles</span>
                  ) : (
                    <ul className="flex flex-wrap gap-1">
                      {user.roles.map((role) => (
                        <li key={role.name}>
                          <Badge>{role.label}</Badge>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className={tdClass}>
                  <YesNo value={user.emailVerified} />
                </td>
                <td className={tdClass}>
                  <YesNo value={user.twoFactorEnabled} />
                </td>
                <td className={tdClass}>
                  {user.active ? <Badge tone="good">Activo</Badge> : <Badge tone="bad">Desactivado</Badge>}
                </td>
                <td className={tdClass}>
                  <DateCell value={user.created} />
                </td>
              </tr>
            ))}
          </AdminTable>
        </div>
      )}

      {pageCount > 1 && (
        <nav
          aria-label="Páginas de usuarios"
          className="mt-6 flex items-center justify-between gap-4 text-sm"
        >
          {page > 1 ? (
            <Link to={pageHref(query, page - 1)} className={buttonClass("secondary")} rel="prev">
              Anterior
            </Link>
          ) : (
            <span />
          )}
          <span className="text-slate-700">
            Página {page} de {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={pageHref(query, page + 1)} className={buttonClass("secondary")} rel="next">
              Siguiente
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </>
  );
}
