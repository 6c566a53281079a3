import { describe, expect, it } from "vitest";
import { parseBlocks, renderGuidePdf } from "./guide-pdf.server";

describe("parseBlocks", () => {
  it("splits headings, paragraphs and lists", () => {
    expect(parseBlocks("## Uno\nlínea a\nlínea b\n\n- x\n- y\n\n1. a\n2. b\n### Dos")).toEqual([
      { kind: "h2", text: "Uno" },
      { kind: "p", text: "línea a línea b" },
      { kind: "ul", items: ["x", "y"] },
      { kind: "ol", items: ["a", "b"] },
      { kind: "h3", text: "Dos" },
    ]);
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

describe("renderGuidePdf", () => {
  it("produces a PDF document with the guide's title in its metadata", async () => {
    const guide = {
      slug: "x",
      title: "Guía de prueba ñandú (2026)",
      description: "Descripción: implantes y carillas",
      category: "Estética",
      pages: 1,
      image: "i",
      imageAlt: "a",
    };
    const pdf = await renderGuidePdf(
      guide,
      "## Capítulo\nTexto con **negrita** y [enlace](/blog).",
      "Clínica",
      "http://localhost",
    );
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.length).toBeGreaterThan(1000);
    expect(pdfInfo(pdf)).toMatchObject({
      Title: guide.title,
      Author: "Clínica",
      Subject: guide.description,
      Keywords: guide.category,
    });
  });
});
