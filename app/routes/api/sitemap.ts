import { articles } from "~/content/articles";
import { clinicFacts } from "~/lib/base/env.server";

const staticPaths = [
  "/",
  "/blog",
  "/politica-privacidad",
  "/terminos-servicio",
  "/eliminar-datos",
  "/devolver-llamada",
];

export function loader() {
  const { siteUrl } = clinicFacts();
  const entries = [
    ...staticPaths.map((path) => ({
      loc: new URL(path, siteUrl).toString(),
      lastmod: undefined as string | undefined,
    })),
    ...articles.map((article) => ({
      loc: new URL(`/blog/${article.slug}`, siteUrl).toString(),
      lastmod: article.date,
    })),
  ];
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    entries
      .map(
        ({ loc, lastmod }) =>
          `  <url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`,
      )
      .join("\n") +
    `\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
