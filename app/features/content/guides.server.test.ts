import { describe, expect, it } from "vitest";
import { defaultClinic, type ClinicFacts } from "~/config/clinic";
import { guides } from "~/content/guides";
import { violatesSafety } from "~/domain/agent-safety";
import { unaccentedForms } from "~/domain/spanish-orthography";
import { guideMarkdown } from "./content.server";
import { chapterTitles, parseBlocks, renderGuidePdf } from "./guide-pdf.server";

/**
 * The number of pages of a PDF, read from its bytes: the page tree's /Count, which must agree with the number of
 * page objects in the file (pdfkit writes dictionaries uncompressed; only content streams are deflated).
 */
function pdfPageCount(pdf: Buffer): number {
  const text = pdf.toString("latin1");
  const pageObjects = text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  const tree = text.indexOf("/Type /Pages");
  const treeBody = text.slice(tree, text.indexOf("endobj", tree));
  const count = Number(/\/Count\s+(\d+)/.exec(treeBody)?.[1]);
  if (tree < 0 || count !== pageObjects)
    throw new Error(`unreadable page tree: /Count ${count}, ${pageObjects} pages`);
  return count;
}

/** A clinic whose facts are all much longer than the demo's: they must not move the guides' text. */
const longClinic: ClinicFacts = {
  ...defaultClinic,
  name: "Centro Odontológico y de Estética Facial Integral de la Región Metropolitana de Santiago de Chile",
  shortName: "Centro Odontológico Integral Metropolitano de Santiago",
  address:
    "Avenida Presidente Kennedy 12.345, torre B, piso 21, oficina 2101, Las Condes, Santiago, Región Metropolitana",
  email: "contacto.pacientes.nuevos@centro-odontologico-integral-metropolitano.example",
  phone: "+56229876543",
  saturday: "Sábados y festivos: consultar disponibilidad con al menos dos días de anticipación",
  siteUrl: "https://www.centro-odontologico-integral-metropolitano-de-santiago.example",
};

/** What every guide must cover (issue 24, item 9), each found among its chapter titles. */
const requiredChapters: Array<[topic: string, title: RegExp]> = [
  ["what the treatment is", /^¿Qué (es|son)\b/],
  ["who it suits and who not", /^¿Para quién es y para quién no\?$/],
  ["the steps", /paso a paso/],
  ["recovery", /^Recuperación\b/],
  ["risks and complications", /^Riesgos y complicaciones$/],
  ["costs and financing", /^Costos y financiamiento$/],
  ["questions to ask the specialist", /^Preguntas para tu especialista$/],
  ["a glossary", /^Glosario$/],
];

const markdownOf = (slug: string, clinic = defaultClinic) => {
  const markdown = guideMarkdown(slug, clinic);
  if (markdown === undefined) throw new Error(`no text for ${slug}`);
  return markdown;
};

/** The chapter titled `title` and its text, up to the next chapter. */
function chapter(markdown: string, title: RegExp): string {
  const chunks = markdown.split(/\n(?=## )/);
  return chunks.find((chunk) => title.test(chunk.split("\n")[0]!.replace(/^##\s+/, ""))) ?? "";
}

describe.each(guides)("the guide $title", (guide) => {
  it("states the real page count of the PDF that 'Descargar Gratis' serves, whatever the clinic's facts", async () => {
    for (const clinic of [defaultClinic, longClinic]) {
      const pdf = await renderGuidePdf(guide, markdownOf(guide.slug, clinic), clinic);
      expect(pdfPageCount(pdf), `${guide.slug}: set pages in app/content/guides.ts to the PDF's count`).toBe(
        guide.pages,
      );
    }
  });

  it("is a substantial guide: 15 to 25 pages", () => {
    expect(guide.pages).toBeGreaterThanOrEqual(15);
    expect(guide.pages).toBeLessThanOrEqual(25);
  });

  it("covers what a patient needs to decide, each in its own chapter", () => {
    const titles = chapterTitles(markdownOf(guide.slug));
    for (const [topic, title] of requiredChapters) {
      expect(
        titles.some((chapterTitle) => title.test(chapterTitle)),
        `${guide.slug} has no chapter on ${topic}`,
      ).toBe(true);
    }
  });

  it("gives costs as referential CLP ranges and names ways to finance them, never as a quote", () => {
    const costs = chapter(markdownOf(guide.slug), /^Costos y financiamiento$/);
    expect(costs).toMatch(/valores referenciales, no un presupuesto ni una oferta/);
    const ranges = [...costs.matchAll(/\$(\d{1,3}(?:\.\d{3})+) a \$(\d{1,3}(?:\.\d{3})+)/g)];
    expect(ranges.length).toBeGreaterThanOrEqual(5);
    for (const [, low, high] of ranges) {
      expect(Number(low!.replace(/\./g, ""))).toBeLessThan(Number(high!.replace(/\./g, "")));
    }
    expect(costs).toMatch(/cuotas/);
    expect(costs).toMatch(/Isapre|isapres/);
  });

  it("lists questions for the specialist and explains its terms", () => {
    const markdown = markdownOf(guide.slug);
    const questions = chapter(markdown, /^Preguntas para tu especialista$/).match(/^- ¿.+\?$/gm) ?? [];
    expect(questions.length).toBeGreaterThanOrEqual(10);
    const terms = chapter(markdown, /^Glosario$/).match(/^- \*\*.+\*\*: .+\.$/gm) ?? [];
    expect(terms.length).toBeGreaterThanOrEqual(12);
  });

  it("is written in correct Spanish and promises no result (the virtual dentist quotes it)", () => {
    const markdown = markdownOf(guide.slug);
    expect(unaccentedForms(`${guide.title} ${guide.description} ${markdown}`)).toEqual([]);
    for (const section of markdown.split(/\n(?=## )/)) expect(violatesSafety(section)).toBe(false);
    expect(markdown).not.toContain("{{");
  });

  it("has only blocks the PDF can show", () => {
    expect(() => parseBlocks(markdownOf(guide.slug))).not.toThrow();
  });
});
