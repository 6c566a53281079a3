import { Link } from "react-router";
import { Prepared } from "~/lib/prepared-markup";
import { formatChileanPhone } from "~/domain/format";
import { useAppData } from "~/lib/app-data";
import { footerColumns } from "../landing-content";

export function SiteFooter() {
  const { clinic, year } = useAppData();
  const { name, address, phone } = clinic;
  return (
    <Prepared
      as="footer"
      attributes={{ className: "bg-ink text-slate-300" }}
      name="footer"
      content={FooterContent}
      props={{ name, address, phone, year }}
    />
  );
}

/** Prepared markup (ADR 055): renders from its props alone. */
function FooterContent(clinic: { name: string; address: string; phone: string; year: number }) {
  const { year } = clinic;
  return (
    <>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 md:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{clinic.name}</p>
          <p className="mt-3 text-sm">{clinic.address}</p>
          <p className="mt-1 text-sm">{formatChileanPhone(clinic.phone)}</p>
        </div>
        {footerColumns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="font-semibold text-white">{column.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {column.links.map((link) => (
                <li key={link.label}>
                  {link.href.startsWith("#") ? (
                    // A section of this page: a plain in-page anchor, as in the header.
                    <a href={link.href} className="hover:text-white">
                      {link.label}
                    </a>
                  ) : (
                    <Link to={link.href} className="hover:text-white">
                      {link.label}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-6xl flex-wrap justify-between gap-3 px-4 py-6 text-sm">
          <p>
            © {year} {clinic.name}. Todos los derechos reservados.
          </p>
          <p className="flex gap-4">
            <Link to="/politica-privacidad" className="hover:text-white">
              Política de Privacidad
            </Link>
            <Link to="/terminos-servicio" className="hover:text-white">
              Términos de Servicio
            </Link>
          </p>
        </div>
      </div>
      {/* Room for the fixed helpers, so 'Términos de Servicio' scrolls clear of them (issue 24, item 7). */}
      <div aria-hidden className="floating-controls-room" />
    </>
  );
}
