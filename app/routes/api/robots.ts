import { clinicFacts } from "~/lib/base/env.server";

export function loader() {
  const { siteUrl } = clinicFacts();
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /paciente",
    "Disallow: /auth",
    "Disallow: /funnel",
    "Disallow: /test",
    "Disallow: /admin",
    "Disallow: /dentista",
    `Sitemap: ${new URL("/sitemap.xml", siteUrl)}`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
