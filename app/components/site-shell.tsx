import { Stethoscope } from "lucide-react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { useAppData, useT } from "~/lib/app-data";
import { cn } from "~/lib/cn";
import { NavPills } from "./nav-pills";

// These pages carry their own header or a link home, so they are shown without the sticky one.
const HEADERLESS_PATHS = new Set(["/", "/auth", "/politica-privacidad", "/terminos-servicio"]);

const patientLinks = [
  { to: "/paciente", key: "shell.dashboard", end: true },
  { to: "/paciente/citas", key: "shell.appointments", end: false },
  { to: "/paciente/asesor", key: "shell.advisor", end: false },
  { to: "/paciente/perfil", key: "shell.profile", end: false },
  { to: "/paciente/datos", key: "shell.myData", end: false },
  { to: "/paciente/ficha", key: "shell.record", end: false },
  { to: "/paciente/pagos", key: "shell.payments", end: false },
] as const;

/** Links to the areas this person may open (the server checks again on every request). */
function areaLinks(roles: readonly string[]) {
  const links: Array<{ to: string; label: string }> = [];
  if (roles.includes("paciente")) links.push({ to: "/paciente", label: "Mi Portal" });
  if (roles.includes("dentista")) links.push({ to: "/dentista", label: "Agenda" });
  if (roles.some((role) => role === "dentista" || role === "admin" || role === "super_admin")) {
    links.push({ to: "/dentista/ficha", label: "Fichas" });
  }
  if (roles.some((role) => role === "asesor" || role === "admin" || role === "super_admin")) {
    links.push({ to: "/funnel", label: "Leads" });
    links.push({ to: "/funnel/solicitudes", label: "Llamadas" });
    // Staff read the payments (ADR 036); only admins change them.
    links.push({ to: "/admin/pagos", label: "Pagos" });
  }
  if (roles.some((role) => role === "admin" || role === "super_admin"))
    links.push({ to: "/admin", label: "Administración" });
  links.push({ to: "/cuenta/seguridad", label: "Seguridad" });
  // A patient finds Mis Datos in the patient navigation; any other account here (ADR 037).
  if (!roles.includes("paciente")) links.push({ to: "/cuenta/datos", label: "Mis Datos" });
  return links;
}

export function SiteShell({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  // The chat room page is what the widget's iframe loads: it is the whole frame.
  if (HEADERLESS_PATHS.has(normalized) || normalized.startsWith("/chat/sala/")) return <>{children}</>;
  return (
    <>
      <SiteHeader showPatientNav={normalized.startsWith("/paciente")} />
      <main id="contenido">{children}</main>
    </>
  );
}

function SiteHeader({ showPatientNav }: { showPatientNav: boolean }) {
  const { clinic, user } = useAppData();
  const t = useT();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 font-bold text-ink">
          <Stethoscope aria-hidden className="size-6 text-brand-700" />
          <span>{clinic.shortName}</span>
        </Link>
        {user ? (
          <div className="flex items-center gap-3 text-sm">
            <nav aria-label="Mis áreas" className="hidden items-center gap-1 sm:flex">
              {areaLinks(user.roles).map((link) => (
                <NavLink
                  key={link.to}
                  to={link.to}
                  className={({ isActive }) =>
                    cn(
                      "rounded-md px-2.5 py-1.5 font-medium",
                      isActive ? "text-brand-800 underline" : "text-slate-700 hover:bg-slate-100",
                    )
                  }
                >
                  {link.label}
                </NavLink>
              ))}
            </nav>
            <span className="font-medium" data-testid="header-user-name">
              {user.name}
            </span>
            <Form method="post" action="/auth/salir" reloadDocument>
              <button
                type="submit"
                className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-50"
              >
                {t("shell.signOut")}
              </button>
            </Form>
          </div>
        ) : (
          <Link
            to="/"
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50"
          >
            {t("shell.start")}
          </Link>
        )}
      </div>
      {showPatientNav && (
        <nav aria-label={t("shell.patientNav")} className="border-t border-slate-100">
          <NavPills
            links={patientLinks.map((link) => ({ to: link.to, label: t(link.key), end: link.end }))}
            className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-4 py-2 text-sm"
          />
        </nav>
      )}
    </header>
  );
}
