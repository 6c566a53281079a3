import { data } from "react-router";
import type { Route } from "./+types/guide-download";
import { findGuide, guideMarkdown } from "~/features/content/content.server";
import { renderGuidePdf } from "~/features/content/guide-pdf.server";
import type { ClinicFacts } from "~/config/clinic";
import type { GuideMeta } from "~/content/guides";
import { clinicFacts } from "~/lib/base/env.server";
import { keyedCache } from "~/lib/ttl-cache.server";

/** Each guide's PDF, rendered once per process (and again after a failed render). */
const renderedPdf = keyedCache(
  (guide: GuideMeta, _markdown: string, _clinic: ClinicFacts) => guide.slug,
  (guide: GuideMeta, markdown: string, clinic: ClinicFacts) => renderGuidePdf(guide, markdown, clinic),
);

/** GET /guias/<slug>.pdf — the free guide as a real PDF, so 'Descargar Gratis' is no dead button. */
export async function loader({ params }: Route.LoaderArgs) {
  const slug = params.file.endsWith(".pdf") ? params.file.slice(0, -4) : "";
  const guide = findGuide(slug);
  const clinic = clinicFacts();
  const markdown = guide && guideMarkdown(guide.slug, clinic);
  if (!guide || markdown === undefined) throw data(null, { status: 404 });

  const body = await renderedPdf(guide, markdown, clinic);
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${slug}.pdf"`,
      "Content-Length": String(body.length),
      "Cache-Control": "public, max-age=3600",
    },
  });
}
