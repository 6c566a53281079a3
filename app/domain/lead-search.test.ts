import { describe, expect, it } from "vitest";
import { containsPattern, MAX_SEARCH_TERMS, searchTerms } from "./lead-search";

describe("searchTerms", () => {
  it("splits words: every word of a multi-word query must match", () => {
    expect(searchTerms("gonz rojas")).toEqual(["gonz", "rojas"]);
    expect(searchTerms("  María   José  ")).toEqual(["María", "José"]);
  });

  it("reads a phone however it is typed as its digits, in one term", () => {
    for (const typed of ["+56 9 1234 5678", "+56912345678", "56-9-1234-5678"]) {
      expect(searchTerms(typed)).toEqual(["56912345678"]);
    }
    expect(searchTerms("9 1234-5678")).toEqual(["912345678"]);
    expect(searchTerms("(9) 1234.5678")).toEqual(["912345678"]);
    expect(searchTerms("912345678")).toEqual(["912345678"]);
  });

  it("turns a phone fragment among words into digits", () => {
    expect(searchTerms("rojas 1234-5678")).toEqual(["rojas", "12345678"]);
  });

  it("drops one-character words, duplicates and punctuation-only input", () => {
    expect(searchTerms("a rojas r")).toEqual(["rojas"]);
    expect(searchTerms("rojas rojas")).toEqual(["rojas"]);
    expect(searchTerms("+ - ()")).toEqual([]);
    expect(searchTerms("   ")).toEqual([]);
    expect(searchTerms("a")).toEqual([]);
  });

  it("keeps e-mail fragments whole", () => {
    expect(searchTerms("camila.rojas@correo")).toEqual(["camila.rojas@correo"]);
  });

  it(`keeps at most ${MAX_SEARCH_TERMS} terms`, () => {
    expect(searchTerms("aa bb cc dd ee ff gg hh")).toHaveLength(MAX_SEARCH_TERMS);
  });
});

describe("containsPattern", () => {
  it("matches anywhere and makes LIKE wildcards literal", () => {
    expect(containsPattern("rojas")).toBe("%rojas%");
    expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });
});
