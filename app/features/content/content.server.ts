import { marked } from "marked";
import { fillClinicPlaceholders, type ClinicFacts } from "~/config/clinic";
import { articles, type ArticleMeta } from "~/content/articles";
import { guides, type GuideMeta } from "~/content/guides";
import { FREE_CANCELLATION_WINDOW_TEXT, LATE_CANCELLATION_FEE_TEXT } from "~/domain/appointment-policy";
import { formatChileanPhone } from "~/domain/format";
import { REMINDER_NOTICE } from "~/domain/reminder-schedule";
import { keyedCache } from "~/lib/ttl-cache.server";

const articleBodies = import.meta.glob<string>("../../content/articles/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});
const guideBodies = import.meta.glob<string>("../../content/guides/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});
const legalBodies = import.meta.glob<string>("../../content/legal/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});

function bodyFor(bodies: Record<string, string>, folder: string, slug: string): string | undefined {
  return bodies[`../../content/${folder}/${slug}.md`];
}

/** The rules' numbers the legal texts quote, as `{{policy.key}}`: the texts take them from the rules' modules. */
const policyValues: Record<string, string> = {
  freeCancellationWindow: FREE_CANCELLATION_WINDOW_TEXT,
  lateCancellationFee: LATE_CANCELLATION_FEE_TEXT,
  reminderNotice: REMINDER_NOTICE,
};

export function markdownSource(text: string, clinic: ClinicFacts): string {
  return fillClinicPlaceholders(text, clinic, formatChileanPhone).replace(
    /\{\{policy\.(\w+)\}\}/g,
    (match, key: string) => policyValues[key] ?? match,
  );
}

/** Our own content only (no user input reaches here), rendered once per process and clinic facts. */
const renderOnce = keyedCache(
  (key: string, _markdown: string, clinic: ClinicFacts) =>
    `${key}|${clinic.name}|${clinic.phone}|${clinic.email}`,
  (_key: string, markdown: string, clinic: ClinicFacts) =>
    marked.parse(markdownSource(markdown, clinic), { async: false, gfm: true }),
);

export function findArticle(slug: string): ArticleMeta | undefined {
  return articles.find((article) => article.slug === slug);
}

export function articleHtml(slug: string, clinic: ClinicFacts): string | undefined {
  const body = bodyFor(articleBodies, "articles", slug);
  return body === undefined ? undefined : renderOnce(`article:${slug}`, body, clinic);
}

/** The article's markdown with the clinic's facts filled in (the chat agent indexes it). */
export function articleMarkdown(slug: string, clinic: ClinicFacts): string | undefined {
  const body = bodyFor(articleBodies, "articles", slug);
  return body === undefined ? undefined : markdownSource(body, clinic);
}

export function findGuide(slug: string): GuideMeta | undefined {
  return guides.find((guide) => guide.slug === slug);
}

export function guideMarkdown(slug: string, clinic: ClinicFacts): string | undefined {
  const body = bodyFor(guideBodies, "guides", slug);
  return body === undefined ? undefined : markdownSource(body, clinic);
}

export type LegalDocument = "politica-privacidad" | "terminos-servicio";

export function legalHtml(document: LegalDocument, clinic: ClinicFacts): string {
  const body = bodyFor(legalBodies, "legal", document);
  if (body === undefined) throw new Error(`missing legal text ${document}`);
  return renderOnce(`legal:${document}`, body, clinic);
}
