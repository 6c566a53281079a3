import { describe, expect, it } from "vitest";
import { filterArticles, parseCategory } from "./article-filter";

const list = [
  { title: "Implantes paso a paso", excerpt: "Todo sobre cirugía", category: "Implantología" as const },
  { title: "IA en radiografías", excerpt: "Detección de CARIES", category: "Tecnología IA" as const },
  { title: "Carillas", excerpt: "Estética de tu sonrisa", category: "Estética Dental" as const },
];

describe("filterArticles", () => {
  it("returns everything for an empty query and Todos", () => {
    expect(filterArticles(list, "  ", "Todos")).toHaveLength(3);
  });
  it("matches title or excerpt ignoring case", () => {
    expect(filterArticles(list, "IMPLANTES", "Todos").map((a) => a.title)).toEqual(["Implantes paso a paso"]);
    expect(filterArticles(list, "caries", "Todos").map((a) => a.title)).toEqual(["IA en radiografías"]);
  });
  it("combines the category with the query", () => {
    expect(filterArticles(list, "", "Estética Dental")).toHaveLength(1);
    expect(filterArticles(list, "implantes", "Estética Dental")).toHaveLength(0);
  });
  it("falls back to Todos for unknown categories", () => {
    expect(parseCategory("Otra")).toBe("Todos");
    expect(parseCategory("Implantología")).toBe("Implantología");
  });
});
