import { create, insertMultiple, search, type Orama } from "@orama/orama";
import { language, stemmer } from "@orama/stemmers/spanish";
import { stopwords } from "@orama/stopwords/spanish";
import type { ClinicFacts } from "~/config/clinic";
import { articles } from "~/content/articles";
import { guides } from "~/content/guides";
import { formatCLP } from "~/domain/format";
import { articleMarkdown, guideMarkdown } from "~/features/content/content.server";
import { getDb } from "~/db/client.server";
import { catalogueTreatments } from "./agent-repository.server";

/**
 * The agent's knowledge: the clinic's own articles, guides, treatments with their catalogue prices and clinic facts,
 * indexed with Orama's Spanish stemmer and stop words (accents are folded by its tokenizer). One passage per
 * section, each with the page it links to.
 */
export interface Passage {
  title: string;
  url: string;
  text: string;
  source: "article" | "guide" | "treatment" | "clinic";
}

const schema = { title: "string", text: "string", url: "string", source: "string" } as const;
type KnowledgeDb = Orama<typeof schema>;

let built: Promise<KnowledgeDb> | undefined;

function plain(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/[#*_>`|]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function sections(markdown: string): Array<{ heading: string; body: string }> {
  return markdown
    .split(/\n(?=##\s)/)
    .map((chunk) => {
      const [first, ...rest] = chunk.split("\n");
      const heading = /^#+\s/.test(first ?? "") ? plain(first ?? "") : "";
      return { heading, body: plain(heading ? rest.join("\n") : chunk) };
    })
    .filter((section) => section.body.length > 40);
}

export async function knowledgePassages(clinic: ClinicFacts): Promise<Passage[]> {
  const passages: Passage[] = [];
  for (const article of articles) {
    const url = `/blog/${article.slug}`;
    passages.push({ title: article.title, url, text: article.excerpt, source: "article" });
    for (const section of sections(articleMarkdown(article.slug, clinic) ?? "")) {
      passages.push({
        title: article.title,
        url,
        text: `${section.heading}. ${section.body}`,
        source: "article",
      });
    }
  }
  for (const guide of guides) {
    const url = `/guias/${guide.slug}.pdf`;
    passages.push({ title: guide.title, url, text: guide.description, source: "guide" });
    for (const section of sections(guideMarkdown(guide.slug, clinic) ?? "")) {
      passages.push({
        title: guide.title,
        url,
        text: `${section.heading}. ${section.body}`,
        source: "guide",
      });
    }
  }
  for (const treatment of await catalogueTreatments(await getDb())) {
    passages.push({
      title: treatment.name,
      url: "/paciente/citas",
      text: `${treatment.name}: ${treatment.description}. Precio base desde ${formatCLP(treatment.basePrice)}.`,
      source: "treatment",
    });
  }
  passages.push({
    title: "Horario y contacto",
    url: "/#contacto",
    text: `Horario de atención: ${clinic.hoursLong}. ${clinic.saturday}. Dirección: ${clinic.address}. Teléfono ${clinic.phone}.`,
    source: "clinic",
  });
  return passages;
}

async function knowledge(clinic: ClinicFacts): Promise<KnowledgeDb> {
  built ??= (async () => {
    const db = create({
      schema,
      components: { tokenizer: { stemming: true, language, stemmer, stopWords: stopwords } },
    });
    await insertMultiple(db, await knowledgePassages(clinic));
    return db;
  })();
  return built;
}

/** The best passages for a question; at most one per page, so a reply cites several sources rather than one twice. */
export async function retrieve(
  question: string,
  clinic: ClinicFacts,
  limit = 3,
  /** Only passages of these kinds (e.g. the guides and articles, for an answer that quotes "our guide"). */
  kinds?: ReadonlyArray<Passage["source"]>,
): Promise<Passage[]> {
  const db = await knowledge(clinic);
  const result = await search(db, {
    term: question,
    properties: ["title", "text"],
    boost: { title: 2 },
    limit: 20,
  });
  const seen = new Set<string>();
  const passages: Passage[] = [];
  for (const hit of result.hits) {
    const doc = hit.document as unknown as Passage;
    if (kinds && !kinds.includes(doc.source)) continue;
    if (seen.has(doc.url)) continue;
    seen.add(doc.url);
    passages.push(doc);
    if (passages.length === limit) break;
  }
  return passages;
}
