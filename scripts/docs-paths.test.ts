// Docs that are true, where it is cheap to check: every repository path the README and docs/**/*.md name in
// backticks or code blocks (`app/…`, `tests/…`, `scripts/…`, `docs/…`, `server/…`, also inside a command) and every
// relative Markdown link (and the heading it points to) must exist. A file moved or renamed without its docs fails
// here, naming the page and the path.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const checkedPrefix = /^(app|tests|scripts|docs|server)\//;
const skippedDirs = new Set([".git", "node_modules", "build", "data", ".react-router", "test-results"]);

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (skippedDirs.has(entry.name)) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    out.push(path);
    if (entry.isDirectory()) walk(path, out);
  }
  return out;
}

const allPaths = walk("");
// docs/research/ holds notes on other projects' code (their paths are not ours), so it is not checked.
const docPages = [
  "README.md",
  ...allPaths.filter((p) => p.startsWith("docs/") && !p.startsWith("docs/research/") && p.endsWith(".md")),
];

function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      source += ".*";
      i++;
      if (glob[i + 1] === "/") i++;
    } else if (c === "*") source += "[^/]*";
    else source += c.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

function exists(path: string): boolean {
  const clean = path.replace(/\/+$/, "");
  if (clean.includes("*")) {
    const pattern = globToRegExp(clean);
    return allPaths.some((p) => pattern.test(p));
  }
  return existsSync(join(root, clean));
}

/** Repository paths named in backticks or code blocks (also inside a command), without placeholders. */
export function backtickedPaths(markdown: string): string[] {
  const fences = [...markdown.matchAll(/^ *```[^\n]*\n([\s\S]*?)^ *```/gm)].map(([, code]) => code!);
  const withoutFences = markdown.replace(/^ *```[\s\S]*?^ *```/gm, "");
  const spans = [...withoutFences.matchAll(/`([^`]+)`/g)].map(([, span]) => span!);
  const paths: string[] = [];
  for (const span of [...spans, ...fences]) {
    for (const raw of span.split(/\s+/)) {
      const token = raw.replace(/^[("'[]+/, "").replace(/[)"',;:.\]]+$/, "");
      if (!checkedPrefix.test(token)) continue;
      if (/[<>{}…=]/.test(token)) continue; // a placeholder (`app/features/<area>`) or an assignment
      paths.push(token.replace(/[?#].*$/, ""));
    }
  }
  return paths;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(path: string): Set<string> {
  const markdown = readFileSync(join(root, path), "utf8").replace(/^ *```[\s\S]*?^ *```/gm, "");
  return new Set([...markdown.matchAll(/^#{1,6} +(.+)$/gm)].map(([, heading]) => headingAnchor(heading!)));
}

/** Links to a heading of another page (or of the same one) whose anchor no heading there produces. */
export function brokenAnchors(page: string, markdown: string): string[] {
  const broken: string[] = [];
  for (const [, target] of markdown.matchAll(/\]\(([^)\s]*#[^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue;
    const [file, anchor] = target!.split("#") as [string, string];
    const path = file ? normalize(relative(root, join(root, dirname(page), file))) : page;
    if (path.endsWith(".md") && existsSync(join(root, path)) && !anchorsOf(path).has(anchor))
      broken.push(target!);
  }
  return broken;
}

/** Relative Markdown link targets, resolved from the page that holds them. */
export function linkedPaths(page: string, markdown: string): string[] {
  const paths: string[] = [];
  for (const [, target] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^([a-z]+:|#|\/)/i.test(target!)) continue;
    const file = target!.replace(/#.*$/, "");
    if (file) paths.push(normalize(relative(root, join(root, dirname(page), file))));
  }
  return paths;
}

describe("docs name only paths that exist", () => {
  it("finds the pages it checks", () => {
    expect(docPages).toContain("README.md");
    expect(docPages.length).toBeGreaterThan(5);
  });

  it("extracts paths from spans and commands, skipping placeholders", () => {
    const sample =
      "`app/domain/rut.ts` and `npx vitest run tests/integration/a.test.ts,` but not `app/features/<area>`";
    expect(backtickedPaths(sample)).toEqual(["app/domain/rut.ts", "tests/integration/a.test.ts"]);
    expect(backtickedPaths("text\n\n   ```sh\n   bash scripts/test-all.sh\n   ```\n")).toEqual([
      "scripts/test-all.sh",
    ]);
    expect(headingAnchor("Lead list at 100,000 leads")).toBe("lead-list-at-100000-leads");
    expect(headingAnchor("Second security review (2026-11): each attack")).toBe(
      "second-security-review-2026-11-each-attack",
    );
    expect(linkedPaths("docs/features/x.md", "[a](../decisions/001-x.md#c) [b](https://x) [c](#d)")).toEqual([
      "docs/decisions/001-x.md",
    ]);
  });

  for (const page of docPages) {
    it(`${page}: every backticked repository path and relative link exists`, () => {
      const markdown = readFileSync(join(root, page), "utf8");
      const missing = [...new Set([...backtickedPaths(markdown), ...linkedPaths(page, markdown)])].filter(
        (p) => !exists(p),
      );
      expect([...missing, ...brokenAnchors(page, markdown)]).toEqual([]);
    });
  }

  it("ADR index lists every ADR file", () => {
    const index = readFileSync(join(root, "docs/decisions/README.md"), "utf8");
    const adrs = allPaths.filter(
      (p) => /^docs\/decisions\/\d{3}-.*\.md$/.test(p) && statSync(join(root, p)).isFile(),
    );
    const unlisted = adrs.filter((p) => !index.includes(`(${p.slice("docs/decisions/".length)})`));
    expect(unlisted).toEqual([]);
  });
});
