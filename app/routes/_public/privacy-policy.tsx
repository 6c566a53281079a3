import { Link } from "react-router";
import type { Route } from "./+types/privacy-policy";
import { buttonClass } from "~/components/ui/button";
import { legalHtml } from "~/features/content/content.server";
import { LegalPage } from "~/features/legal/components/legal-page";
import { clinicFacts } from "~/lib/base/env.server";
import { clinicFromMatches, pageMeta } from "~/lib/seo";

export function loader() {
  return { html: legalHtml("politica-privacidad", clinicFacts()) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Política de Privacidad | Río Clínica",
    description: "Cómo tratamos y protegemos tus datos personales y de salud, y cómo ejercer tus derechos.",
    path: "/politica-privacidad",
    clinic: clinicFromMatches(matches),
  });

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  return (
    <LegalPage
      title="Política de Privacidad"
      html={loaderData.html}
      actions={
        <>
          <Link to="/eliminar-datos" className={buttonClass("primary")}>
            Solicitar eliminación de datos
          </Link>
          <Link to="/devolver-llamada" className={buttonClass("secondary")}>
            Ejercer otros derechos o pedir que te llamemos
          </Link>
          <Link to="/terminos-servicio" className={buttonClass("ghost")}>
            Términos de Servicio
          </Link>
        </>
      }
    />
  );
}
