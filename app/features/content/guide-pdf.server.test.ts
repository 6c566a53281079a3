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

describe("renderGuidePdf", () => {
  it("produces a PDF document with the guide's title in its metadata", async () => {
    const pdf = await renderGuidePdf(
      {
        slug: "x",
        title: "Guía de prueba ñandú",
        description: "d",
        category: "c",
        pages: 1,
        image: "i",
        imageAlt: "a",
      },
      "## Capítulo\nTexto con **negrita** y [enlace](/blog).",
      "Clínica",
      "http://localhost",
    );
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.length).toBeGreaterThan(1000);
  });
});
