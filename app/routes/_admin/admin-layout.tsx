import { NavLink, Outlet, useLocation } from "react-router";
import type { Route } from "./+types/admin-layout";
import { ADMIN_ROLES } from "~/domain/roles";
import { requireRole } from "~/lib/guards.server";
import { cn } from "~/lib/cn";

/** Every /admin page needs an admin role; the children check again in their own loaders and actions. */
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, ADMIN_ROLES);
  return null;
}

const links = [
  { to: "/admin", label: "Usuarios", end: true },
  { to: "/admin/solicitudes", label: "Solicitudes", end: false },
  { to: "/admin/auditoria", label: "Auditoría", end: false },
] as const;

export default function AdminLayout() {
  const { pathname } = useLocation();
  // A user's detail page belongs to "Usuarios".
  const onUserDetail = pathname.startsWith("/admin/usuarios/");
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <div className="mb-8 flex flex-wrap items-center justify-between gap-4 border-b border-slate-200 pb-4">
        <p className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Administración</p>
        <nav aria-label="Administración">
          <ul className="flex flex-wrap gap-1 text-sm">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.end}
                  className={({ isActive }) =>
                    cn(
                      "block rounded-md px-3 py-1.5 font-medium",
                      isActive || (onUserDetail && link.to === "/admin")
                        ? "bg-brand-700 text-white"
                        : "text-slate-700 hover:bg-slate-100",
                    )
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <Outlet />
    </div>
  );
}
