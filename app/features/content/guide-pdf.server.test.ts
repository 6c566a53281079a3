import { describe, expect, it } from "vitest";
import { defaultClinic } from "~/config/clinic";
import { parseBlocks, renderGuidePdf } from "./guide-pdf.server";

describe("parseBlocks", () => {
  it("splits chapters, sections, paragraphs, lists, notes and tables, keeping bold, italic and links", () => {
    const markdown = [
      "## Uno",
      "línea a",
      "línea **b** y [enlace](/blog) *fin*",
      "",
      "- x",
      "- **y**: z",
      "",
      "1. a",
      "2. b",
      "",
      "> **Importante:** nota",
      "",
      "| Prestación | Rango |",
      "| --- | --- |",
      "| Implante | $1 a $2 |",
      "### Dos",
    ].join("\n");
    expect(parseBlocks(markdown)).toEqual([
      { kind: "h2", text: "Uno" },
      {
        kind: "p",
        runs: [
          { text: "línea a línea " },
          { text: "b", bold: true },
          { text: " y " },
          { text: "enlace", href: "/blog" },
          { text: " " },
          { text: "fin", italic: true },
        ],
      },
      { kind: "ul", items: [[{ text: "x" }], [{ text: "y", bold: true }, { text: ": z" }]] },
      { kind: "ol", items: [[{ text: "a" }], [{ text: "b" }]] },
      { kind: "note", runs: [{ text: "Importante:", bold: true }, { text: " nota" }] },
      { kind: "table", header: ["Prestación", "Rango"], rows: [["Implante", "$1 a $2"]] },
      { kind: "h3", text: "Dos" },
    ]);
  });

  it("refuses a block the PDF cannot show, so a mistake in a guide fails its test", () => {
    expect(() => parseBlocks("## Uno\n\n```\ncódigo\n```")).toThrow(/code/);
    expect(() => parseBlocks("## Uno\n\n---\n")).toThrow(/hr/);
  });
});

/**
 * The bytes of a PDF literal string `( … )` starting at `start` (the opening parenthesis), escapes resolved, and the
 * offset just after its closing parenthesis.
 */
function literalString(pdf: string, start: number): { bytes: number[]; end: number } {
  const bytes: number[] = [];
  let depth = 0;
  for (let index = start; index < pdf.length; index++) {
    const char = pdf[index]!;
    if (char === "\\") {
      const next = pdf[++index]!;
      const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, "(": 40, ")": 41, "\\": 92 };
      if (next in escapes) bytes.push(escapes[next]!);
      else if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(pdf.slice(index, index + 3))![0];
        bytes.push(Number.parseInt(octal, 8) & 0xff);
        index += octal.length - 1;
      } else if (next === "\r" && pdf[index + 1] === "\n")
        index++; // line continuation
      else if (next !== "\n" && next !== "\r") bytes.push(next.charCodeAt(0));
      continue;
    }
    if (char === "(") {
      depth++;
      if (depth === 1) continue;
    } else if (char === ")") {
      depth--;
      if (depth === 0) return { bytes, end: index + 1 };
    }
    bytes.push(char.charCodeAt(0));
  }
  throw new Error("unterminated PDF string");
}

/** A PDF text string's bytes as text: UTF-16BE after a byte-order mark, else PDFDocEncoding (Latin-1 here). */
function decodeTextString(bytes: number[]): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const units: number[] = [];
    for (let index = 2; index + 1 < bytes.length; index += 2)
      units.push((bytes[index]! << 8) | bytes[index + 1]!);
    return String.fromCharCode(...units);
  }
  return Buffer.from(bytes).toString("latin1");
}

/** The value of a PDF string object at `start`: a literal `( … )` or a hex string `< … >`. */
function stringAt(pdf: string, start: number): string {
  if (pdf[start] === "(") return decodeTextString(literalString(pdf, start).bytes);
  const hex = /^<([0-9A-Fa-f\s]*)>/.exec(pdf.slice(start));
  if (!hex) throw new Error(`no string at offset ${start}: ${pdf.slice(start, start + 20)}`);
  const digits = hex[1]!.replace(/\s/g, "");
  const padded = digits.length % 2 ? `${digits}0` : digits;
  return decodeTextString([...Buffer.from(padded, "hex")]);
}

/** The body of indirect object `number generation obj … endobj`. */
function objectBody(pdf: string, ref: string): { body: string; offset: number } {
  const [number, generation] = ref.trim().split(/\s+/);
  const match = new RegExp(`(?:^|[\\r\\n\\s])${number}\\s+${generation}\\s+obj\\b`).exec(pdf);
  if (!match) throw new Error(`object ${ref} not found`);
  const offset = match.index + match[0].length;
  const end = pdf.indexOf("endobj", offset);
  return { body: pdf.slice(offset, end), offset };
}

/**
 * The document information dictionary (Title, Author, …) read from the PDF's bytes: the trailer's /Info reference,
 * then each entry's value, inline or behind an indirect reference (pdfkit writes each value as its own object).
 */
function pdfInfo(pdf: Buffer): Record<string, string> {
  const text = pdf.toString("latin1");
  const trailer = text.slice(text.lastIndexOf("trailer"));
  const infoRef = /\/Info\s+(\d+\s+\d+)\s+R/.exec(trailer)?.[1];
  if (!infoRef) throw new Error("the PDF has no /Info dictionary");
  const info = objectBody(text, infoRef);
  const entries: Record<string, string> = {};
  const key = /\/(\w+)\s*(\(|<(?!<)|\d+\s+\d+\s+R)/g;
  for (let match = key.exec(info.body); match; match = key.exec(info.body)) {
    const [, name, value] = match;
    if (value!.endsWith("R")) {
      const target = objectBody(text, value!.slice(0, -1));
      entries[name!] = stringAt(text, target.offset + target.body.search(/[(<]/));
    } else {
      const start = info.offset + match.index + match[0].length - 1;
      entries[name!] = stringAt(text, start);
      // Skip the string's text, which may itself contain "/Name (".
      if (value === "(") key.lastIndex = literalString(text, start).end - info.offset;
    }
  }
  return entries;
}

describe("pdfInfo (test helper)", () => {
  it("decodes literal, escaped, hex and UTF-16 strings, inline or behind a reference", () => {
    const pdf = Buffer.from(
      [
        "%PDF-1.7",
        "5 0 obj\n(\\376\\377\\000\\(\\000\\361)\nendobj",
        "9 0 obj\n<< /Title 5 0 R /Author (A \\(b\\) c\\\\d /X \\(y\\)) /Subject <FEFF00F100E9> /Keywords <4869> >>\nendobj",
        "trailer\n<< /Size 10 /Info 9 0 R >>\n%%EOF",
      ].join("\n"),
      "latin1",
    );
    expect(pdfInfo(pdf)).toEqual({ Title: "(ñ", Author: "A (b) c\\d /X (y)", Subject: "ñé", Keywords: "Hi" });
  });
});

const pages = (buffer: Buffer) => buffer.toString("latin1").match(/\/Type\s*\/Page(?![a-z])/g)?.length;

describe("renderGuidePdf", () => {
  const guide = {
    slug: "x",
    title: "Guía de prueba ñandú (2026)",
    description: "Descripción: implantes y carillas",
    category: "Estética",
    pages: 1,
    image: "i",
    imageAlt: "a",
  };

  it("produces a PDF document with the guide's title in its metadata", async () => {
    const pdf = await renderGuidePdf(
      guide,
      "## Capítulo\nTexto con **negrita** y [enlace](/blog).",
      defaultClinic,
    );
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.length).toBeGreaterThan(1000);
    expect(pdfInfo(pdf)).toMatchObject({
      Title: guide.title,
      Author: defaultClinic.name,
      Subject: guide.description,
      Keywords: guide.category,
    });
  });

  it("is a book: cover, contents, one page per short chapter, back cover; an outline and links to each chapter", async () => {
    const pdf = await renderGuidePdf(guide, "## Uno\nTexto.\n\n## Dos\nMás texto.", defaultClinic);
    const text = pdf.toString("latin1");
    expect(pages(pdf)).toBe(5);
    expect(text).toMatch(/\/PageMode\s*\/UseOutlines/);
    expect(text).toContain("(capitulo-1)");
    expect(text).toContain("(capitulo-2)");
  });

  it("a long chapter flows over several pages, each with its number in the footer", async () => {
    const long = `## Largo\n${Array.from({ length: 60 }, (_, index) => `Párrafo ${index} ${"palabra ".repeat(60)}`).join("\n\n")}`;
    const short = await renderGuidePdf(guide, "## Largo\nTexto.", defaultClinic);
    const pdf = await renderGuidePdf(guide, long, defaultClinic);
    expect(pages(short)).toBe(4);
    expect(pages(pdf)).toBeGreaterThan(8);
  });
});
