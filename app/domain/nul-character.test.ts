import { describe, expect, it } from "vitest";
import { containsNul, urlCarriesNul } from "./nul-character";

describe("containsNul", () => {
  it("finds a NUL in a string, deep in arrays and objects, and in keys", () => {
    expect(containsNul("a\u0000b")).toBe(true);
    expect(containsNul(["x", { y: ["z\u0000"] }])).toBe(true);
    expect(containsNul({ "k\u0000": 1 })).toBe(true);
  });

  it("leaves everything else alone, including the escaped text '\\u0000'", () => {
    expect(containsNul("María \\u0000 %00")).toBe(false);
    expect(containsNul({ a: [1, null, true, "ok"], b: { c: "ñ" } })).toBe(false);
    expect(containsNul(null)).toBe(false);
    expect(containsNul(42)).toBe(false);
  });
});

describe("urlCarriesNul", () => {
  it("finds %00 in the path or the query, in either case", () => {
    expect(urlCarriesNul(new URL("http://x/paciente/ficha/archivo/%00"))).toBe(true);
    expect(urlCarriesNul(new URL("http://x/funnel/leads.csv?q=a%00b"))).toBe(true);
    expect(urlCarriesNul(new URL("http://x/a?%00=1"))).toBe(true);
  });

  it("does not mistake a double-encoded %2500 or other escapes for it", () => {
    expect(urlCarriesNul(new URL("http://x/funnel?q=%2500"))).toBe(false);
    expect(urlCarriesNul(new URL("http://x/blog/ni%C3%B1os?q=100%25"))).toBe(false);
  });
});
