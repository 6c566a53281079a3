import { describe, expect, it } from "vitest";
import { catalogues, localeCookie, resolveLocale } from "./messages";

describe("catalogues", () => {
  it("has the same keys and no empty text in both locales", () => {
    expect(Object.keys(catalogues.en).toSorted()).toEqual(Object.keys(catalogues.es).toSorted());
    for (const text of [...Object.values(catalogues.es), ...Object.values(catalogues.en)])
      expect(text.trim()).not.toBe("");
  });
});

describe("resolveLocale", () => {
  it("defaults to Spanish", () => {
    expect(resolveLocale(new URL("http://x/"), null)).toEqual({ locale: "es", remember: false });
  });
  it("takes ?lang and asks to remember it", () => {
    expect(resolveLocale(new URL("http://x/?lang=en"), "lang=es")).toEqual({ locale: "en", remember: true });
  });
  it("reads the cookie", () => {
    expect(resolveLocale(new URL("http://x/"), "a=1; lang=en")).toEqual({ locale: "en", remember: false });
  });
  it("ignores unknown values", () => {
    expect(resolveLocale(new URL("http://x/?lang=fr"), "lang=de").locale).toBe("es");
  });
  it("builds a Secure cookie over https", () => {
    expect(localeCookie("en", true)).toContain("; Secure");
    expect(localeCookie("en", false)).not.toContain("Secure");
  });
});
