import { Menu, Stethoscope, X } from "~/components/static-icons";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { useAppData, useT } from "~/lib/app-data";
import { Prepared } from "~/lib/prepared-markup";

interface NavLink {
  href: string;
  label: string;
}

export function LandingHeader() {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // Escape closes the phone menu and gives focus back to its button.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);
  const { clinic, user } = useAppData();
  const t = useT();
  const links = [
    { href: "#home", label: t("nav.home") },
    { href: "#tratamientos", label: t("nav.treatments") },
    { href: "/blog", label: t("nav.ebooks") },
    { href: "#contacto", label: t("nav.contact") },
  ];
  const portal = user
    ? { to: "/paciente", label: t("nav.myPortal") }
    : { to: "/auth", label: t("nav.portal") };

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
      <a
        href="#contenido"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2"
      >
        {t("nav.skipToContent")}
      </a>
      <Prepared
        as="div"
        attributes={{ className: "mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4" }}
        name="header-bar"
        content={HeaderBar}
        props={{
          shortName: clinic.shortName,
          links,
          portal,
          open,
          labels: { main: t("nav.mainLabel"), openMenu: t("nav.openMenu"), closeMenu: t("nav.closeMenu") },
        }}
        live={{ toggleRef: toggle, onToggle: () => setOpen((value) => !value) }}
      />
      <Prepared
        as="nav"
        attributes={{
          id: "menu-movil",
          "aria-label": t("nav.mainLabel"),
          hidden: !open,
          className: "border-t border-slate-200 md:hidden",
          // A link chosen in the menu closes it (the links are prepared markup: one handler for all of them).
          onClick: (event) => {
            if (event.target instanceof Element && event.target.closest("a")) setOpen(false);
          },
        }}
        name="header-menu"
        content={MobileMenuLinks}
        props={{ links, portal }}
      />
    </header>
  );
}

interface HeaderBarProps {
  shortName: string;
  links: NavLink[];
  portal: { to: string; label: string };
  /** Whether the phone menu is open (the server's HTML: closed). */
  open: boolean;
  labels: { main: string; openMenu: string; closeMenu: string };
}

/**
 * The bar: the clinic's name, the desktop links, the portal link and the phone menu's button. Prepared markup
 * (ADR 055): renders from its props alone; the button's handler and ref come with `live` in the browser.
 */
function HeaderBar({
  shortName,
  links,
  portal,
  open,
  labels,
  live,
}: HeaderBarProps & {
  live?: { toggleRef: React.RefObject<HTMLButtonElement | null>; onToggle: () => void };
}) {
  return (
    <>
      <a href="#home" className="flex items-center gap-2 font-bold text-ink">
        <Stethoscope className="size-7 text-brand-700" />
        <span className="leading-tight">{shortName}</span>
      </a>
      <nav aria-label={labels.main} className="hidden md:block">
        <DesktopNavLinks links={links} />
      </nav>
      <div className="flex items-center gap-2">
        <Link
          to={portal.to}
          className="hidden rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 sm:inline-flex"
        >
          {portal.label}
        </Link>
        <button
          ref={live?.toggleRef}
          type="button"
          className="inline-flex size-11 items-center justify-center rounded-lg text-ink hover:bg-slate-100 md:hidden"
          aria-expanded={open}
          aria-controls="menu-movil"
          aria-label={open ? labels.closeMenu : labels.openMenu}
          onClick={live?.onToggle}
        >
          {open ? <X className="size-6" /> : <Menu className="size-6" />}
        </button>
      </div>
    </>
  );
}

function DesktopNavLinks({ links }: { links: NavLink[] }) {
  return (
    <ul className="flex items-center gap-6 text-sm font-medium text-slate-700">
      {links.map((link) => (
        <li key={link.href}>
          <a href={link.href} className="hover:text-brand-700">
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Prepared markup (ADR 055): renders from its props alone. */
function MobileMenuLinks({ links, portal }: { links: NavLink[]; portal: { to: string; label: string } }) {
  return (
    <ul className="space-y-1 px-4 py-3">
      {links.map((link) => (
        <li key={link.href}>
          <a
            href={link.href}
            className="block rounded-md px-3 py-2.5 font-medium text-slate-800 hover:bg-slate-100"
          >
            {link.label}
          </a>
        </li>
      ))}
      <li>
        <Link
          to={portal.to}
          className="mt-2 block rounded-md bg-brand-700 px-3 py-2.5 text-center font-semibold text-white"
        >
          {portal.label}
        </Link>
      </li>
    </ul>
  );
}
