import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Contrast: white text on emerald-600 (3.8:1), sky-600 (4.1:1), teal-600 / brand-600 (3.7:1) is under WCAG AA's
// 4.5:1; the -700 shades pass (emerald 5.5, sky 5.9, teal 5.5). A class list that puts white text on one of the light
// shades, also as a hover state, fails here before axe meets it on some page.
const LIGHT_BACKGROUND =
  /(?:^|\s)(?:hover:|focus:|focus-visible:|active:)?bg-(?:emerald|sky|teal|brand|green|cyan|blue)-(?:300|400|500|600)\b/;
const WHITE_TEXT = /(?:^|\s)text-white\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(tsx|ts)$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("colour contrast of white text", () => {
  it("no class list puts white text on a -300…-600 green, teal or blue background", () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(path.resolve("app"))) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/["'`]([^"'`\n]*text-white[^"'`\n]*)["'`]/g)) {
        const classes = match[1] ?? "";
        if (WHITE_TEXT.test(classes) && LIGHT_BACKGROUND.test(classes)) {
          offenders.push(`${path.relative(process.cwd(), file)}: ${classes}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("catches the combinations it is meant to", () => {
    expect(LIGHT_BACKGROUND.test("rounded bg-emerald-600 text-white")).toBe(true);
    expect(LIGHT_BACKGROUND.test("bg-sky-700 text-white hover:bg-sky-600")).toBe(true);
    expect(LIGHT_BACKGROUND.test("bg-brand-700 text-white hover:bg-brand-800")).toBe(false);
  });
});
