import { useLocation } from "react-router";
import { NavPills } from "./nav-pills";

const adminLinks = [
  { to: "/admin", label: "Usuarios", end: true },
  { to: "/admin/solicitudes", label: "Solicitudes", end: false },
  { to: "/admin/pagos", label: "Pagos", end: false },
  { to: "/admin/auditoria", label: "Auditoría", end: false },
] as const;

/**
 * The frame of the /admin pages: the section's name and its navigation. An asesor reaches only /admin/pagos (read
 * only, ADR 036), so the navigation shows them that page and the way back to their dashboard.
 */
export function AdminShell({ isAdmin = true, children }: { isAdmin?: boolean; children: React.ReactNode }) {
  const { pathname } = useLocation();
  // A user's detail page belongs to "Usuarios".
  const onUserDetail = pathname.startsWith("/admin/usuarios/");
  const links = isAdmin
    ? adminLinks
    : ([
        { to: "/funnel", label: "Volver al Funnel", end: true },
        { to: "/admin/pagos", label: "Pagos", end: false },
      ] as const);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <div className="mb-8 flex flex-wrap items-center justify-between gap-4 border-b border-slate-200 pb-4">
        <p className="text-sm font-semibold tracking-wide text-slate-600 uppercase">Administración</p>
        <nav aria-label="Administración">
          <NavPills
            links={links}
            className="flex flex-wrap gap-1 text-sm"
            current={(link) => onUserDetail && link.to === "/admin"}
          />
        </nav>
      </div>
      {children}
    </div>
  );
}
