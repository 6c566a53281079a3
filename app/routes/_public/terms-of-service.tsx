import { Link } from "react-router";
import type { Route } from "./+types/terms-of-service";
import { buttonClass } from "~/components/ui/button";
import { legalHtml } from "~/features/content/content.server";
import { LegalPage } from "~/features/legal/components/legal-page";
import { clinicFacts } from "~/lib/base/env.server";
import { clinicFromMatches, pageMeta } from "~/lib/seo";

export function loader() {
  return { html: legalHtml("terminos-servicio", clinicFacts()) };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Términos de Servicio | Río Clínica",
    description: "Condiciones de uso del sitio, del portal de pacientes, de las citas, pagos y reembolsos.",
    path: "/terminos-servicio",
    clinic: clinicFromMatches(matches),
  });

export default function TermsOfService({ loaderData }: Route.ComponentProps) {
  return (
    <LegalPage
      title="Términos de Servicio"
      html={loaderData.html}
      actions={
        <>
          <Link to="/politica-privacidad" className={buttonClass("primary")}>
            Política de Privacidad
          </Link>
          <Link to="/" className={buttonClass("secondary")}>
            Volver al inicio
          </Link>
        </>
      }
    />
  );
}
