import { Link, useLocation } from "react-router";
import { NavPills } from "./nav-pills";

const adminLinks = [
  { to: "/admin", label: "Usuarios", end: true },
  { to: "/admin/solicitudes", label: "Solicitudes", end: false },
  { to: "/admin/pagos", label: "Pagos", end: false },
  { to: "/admin/agenda", label: "Agenda", end: false },
  { to: "/admin/inasistencias", label: "Inasistencias", end: false },
  { to: "/admin/lista-de-espera", label: "Lista de espera", end: false },
  { to: "/admin/privacidad", label: "Privacidad", end: false },
  { to: "/admin/auditoria", label: "Auditoría", end: false },
  { to: "/admin/recordatorios", label: "Recordatorios", end: false },
] as const;

/** Open data-subject requests against their legal term (the admin layout's loader counts them). */
export interface PrivacyClockCounts {
  overdue: number;
  dueThisWeek: number;
}

/** The privacy queue's clock on every admin page: overdue requests and those due within the week. */
function PrivacyClockLine({ counts }: { counts: PrivacyClockCounts }) {
  if (counts.overdue === 0 && counts.dueThisWeek === 0) return null;
  const parts = [
    counts.overdue > 0 && `${counts.overdue} ${counts.overdue === 1 ? "vencida" : "vencidas"}`,
    counts.dueThisWeek > 0 &&
      `${counts.dueThisWeek} ${counts.dueThisWeek === 1 ? "vence" : "vencen"} esta semana`,
  ].filter(Boolean);
  return (
    <p
      className={`mb-6 rounded-lg p-3 text-sm font-medium ${counts.overdue > 0 ? "bg-red-50 text-red-800" : "bg-amber-50 text-amber-900"}`}
      data-testid="privacy-clock-counts"
    >
      Solicitudes de datos personales: {parts.join(" · ")}.{" "}
      <Link to="/admin/privacidad" className="underline">
        Ver la cola de privacidad
      </Link>
    </p>
  );
}

/**
 * The frame of the /admin pages: the section's name and its navigation. An asesor reaches only /admin/pagos (read
 * only, ADR 036), so the navigation shows them that page and the way back to their dashboard.
 */
export function AdminShell({
  isAdmin = true,
  privacyCounts,
  children,
}: {
  isAdmin?: boolean;
  privacyCounts?: PrivacyClockCounts;
  children: React.ReactNode;
}) {
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
      {privacyCounts && <PrivacyClockLine counts={privacyCounts} />}
      {children}
    </div>
  );
}
