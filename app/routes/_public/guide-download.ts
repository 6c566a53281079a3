import { data } from "react-router";
import type { Route } from "./+types/guide-download";
import { findGuide, guideMarkdown } from "~/features/content/content.server";
import { renderGuidePdf } from "~/features/content/guide-pdf.server";
import { clinicFacts } from "~/lib/env.server";

const rendered = new Map<string, Promise<Buffer>>();

/** GET /guias/<slug>.pdf — the free guide as a real PDF (DESIGN decision 9). */
export async function loader({ params }: Route.LoaderArgs) {
  const slug = params.file.endsWith(".pdf") ? params.file.slice(0, -4) : "";
  const guide = findGuide(slug);
  const clinic = clinicFacts();
  const markdown = guide && guideMarkdown(guide.slug, clinic);
  if (!guide || markdown === undefined) throw data(null, { status: 404 });

  let pdf = rendered.get(slug);
  if (!pdf) {
    pdf = renderGuidePdf(guide, markdown, clinic.name, clinic.siteUrl);
    rendered.set(slug, pdf);
    pdf.catch(() => rendered.delete(slug));
  }
  const body = await pdf;
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${slug}.pdf"`,
      "Content-Length": String(body.length),
      "Cache-Control": "public, max-age=3600",
    },
  });
}
