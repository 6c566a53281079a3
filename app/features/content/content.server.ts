import { marked } from "marked";
import { fillClinicPlaceholders, type ClinicFacts } from "~/config/clinic";
import { articles, type ArticleMeta } from "~/content/articles";
import { processors } from "~/content/processors";
import { guides, type GuideMeta } from "~/content/guides";
import { FREE_CANCELLATION_WINDOW_TEXT, LATE_CANCELLATION_FEE_TEXT } from "~/domain/appointment-policy";
import { formatChileanPhone } from "~/domain/format";
import { REMINDER_NOTICE } from "~/domain/reminder-schedule";
import { periodText, retentionActionText, retentionRules } from "~/domain/retention";
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

/** A markdown table cell: our own text, with the characters a table or inline markup would read escaped. */
const cell = (value: string) => value.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\n/g, " ");

/**
 * The tables the privacy policy renders from their one source (ADR 038): `{{retention.table}}` from
 * `domain/retention.ts`, `{{processors.list}}` from `content/processors.ts`.
 */
const generatedBlocks: Record<string, () => string> = {
  "retention.table": () =>
    [
      "| Dato | Plazo | Desde | Al cumplirse | Por qué |",
      "| --- | --- | --- | --- | --- |",
      ...retentionRules.map(
        (rule) =>
          `| ${cell(rule.label)} | ${cell(periodText(rule.period))} | ${cell(rule.from)} | ${cell(retentionActionText(rule.action))} | ${cell(rule.reason)} |`,
      ),
    ].join("\n"),
  "processors.list": () =>
    processors
      .map((processor) =>
        [
          `- **${processor.name}**: ${processor.purpose}`,
          `  - Datos: ${processor.data}`,
          `  - Dónde: ${processor.location}${processor.transferAbroad ? " Es una transferencia internacional de datos." : ""}`,
          `  - Garantías: ${processor.safeguards}`,
          ...(processor.condition ? [`  - Cuándo: ${processor.condition}`] : []),
        ].join("\n"),
      )
      .join("\n"),
};

export function markdownSource(text: string, clinic: ClinicFacts): string {
  return fillClinicPlaceholders(text, clinic, formatChileanPhone)
    .replace(/\{\{policy\.(\w+)\}\}/g, (match, key: string) => policyValues[key] ?? match)
    .replace(
      /\{\{((?:retention|processors)\.\w+)\}\}/g,
      (match, key: string) => generatedBlocks[key]?.() ?? match,
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
