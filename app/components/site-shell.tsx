import { Menu, Stethoscope, X } from "~/components/static-icons";
import { useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { useAppData, useT } from "~/lib/app-data";
import { cn } from "~/lib/cn";
import { NavPills, type NavPill } from "./nav-pills";

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
  const { pathname } = useLocation();
  const t = useT();
  const patientNav = patientLinks.map((link) => ({ to: link.to, label: t(link.key), end: link.end }));
  const areas = user ? areaLinks(user.roles) : [];
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4">
        <Link to="/" className="flex shrink-0 items-center gap-2 font-bold text-ink">
          <Stethoscope className="size-6 text-brand-700" />
          <span>{clinic.shortName}</span>
        </Link>
        {user ? (
          <div className="flex min-w-0 items-center gap-3 text-sm">
            <nav aria-label={t("shell.areas")} className="hidden items-center gap-1 lg:flex">
              {areas.map((link) => (
                <NavLink
                  key={link.to}
                  to={link.to}
                  className={({ isActive }) =>
                    cn(
                      "rounded-md px-2.5 py-1.5 font-medium whitespace-nowrap",
                      isActive ? "text-brand-800 underline" : "text-slate-700 hover:bg-slate-100",
                    )
                  }
                >
                  {link.label}
                </NavLink>
              ))}
            </nav>
            {/* On a phone the name is in the menu; the bar keeps the logo, 'Salir' and the menu button. */}
            <span className="hidden truncate font-medium sm:inline" data-testid="header-user-name">
              {user.name}
            </span>
            <Form method="post" action="/auth/salir" reloadDocument>
              <button
                type="submit"
                className="rounded-md border border-slate-300 px-3 py-1.5 font-medium whitespace-nowrap hover:bg-slate-50"
              >
                {t("shell.signOut")}
              </button>
            </Form>
            {/* A new page starts with the menu closed (also after the browser's Back). */}
            <PhoneMenu
              key={pathname}
              userName={user.name}
              areas={areas}
              patientNav={showPatientNav ? patientNav : null}
            />
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
        // Seven labels fit on one line from 768 px; below that they are in the menu (issue 24, item 8).
        <nav aria-label={t("shell.patientNav")} className="hidden border-t border-slate-100 md:block">
          <NavPills
            links={patientNav}
            className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-4 py-2 text-sm whitespace-nowrap"
          />
        </nav>
      )}
    </header>
  );
}

const MENU_ID = "menu-areas";

// As in the bars: the patient page is filled, the area (which spans several pages) underlined.
const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "block rounded-md px-3 py-2.5 font-medium",
    isActive ? "bg-brand-700 text-white" : "text-slate-800 hover:bg-slate-100",
  );
const areaLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "block rounded-md px-3 py-2.5 font-medium hover:bg-slate-100",
    isActive ? "text-brand-800 underline" : "text-slate-800",
  );

/**
 * Below 1024 px the areas (Mi Portal, Seguridad, …) and, below 768 px, the patient navigation are behind one
 * disclosure button (issue 24, item 8): aria-expanded, Escape closes it and gives focus back to the button, a click
 * outside or on a link closes it. The panel follows the button, so Tab moves into it.
 */
function PhoneMenu({
  userName,
  areas,
  patientNav,
}: {
  userName: string;
  areas: ReadonlyArray<{ to: string; label: string }>;
  patientNav: readonly NavPill[] | null;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (panel.current?.contains(target) || button.current?.contains(target)) return;
      setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open]);

  const close = () => setOpen(false);

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={MENU_ID}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex min-h-11 items-center gap-1.5 rounded-md px-2.5 font-medium text-ink hover:bg-slate-100 lg:hidden"
      >
        {open ? <X className="size-5" /> : <Menu className="size-5" />}
        {t("shell.menu")}
      </button>
      <div
        ref={panel}
        id={MENU_ID}
        hidden={!open}
        className="absolute inset-x-0 top-16 max-h-[calc(100dvh-4rem)] overflow-y-auto border-y border-slate-200 bg-white shadow-lg lg:hidden"
      >
        <div className="mx-auto max-w-6xl space-y-4 px-4 py-4 text-base">
          <p className="px-3 text-sm text-slate-600 sm:hidden">{userName}</p>
          {patientNav && (
            <nav aria-label={t("shell.patientNav")} className="md:hidden">
              <ul className="space-y-1">
                {patientNav.map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to} end={link.end} className={linkClass} onClick={close}>
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <nav
            aria-label={t("shell.areas")}
            className={patientNav ? "border-t border-slate-200 pt-4 md:border-t-0 md:pt-0" : undefined}
          >
            <ul className="space-y-1">
              {areas.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} className={areaLinkClass} onClick={close}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </div>
    </>
  );
}
