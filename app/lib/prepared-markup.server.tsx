import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import type { MarkupPreparer } from "~/lib/prepared-markup";

/** Distinct (part, props) pairs kept: a handful per part (signed in or not, the year); the oldest goes first. */
const MAX_ENTRIES = 64;
/** Per part, the props last served are compared first, value by value (a page's render asks for each part once). */
const RECENT_PER_PART = 4;

interface Prepared {
  props: unknown;
  html: string;
}

/** Whether two JSON-like values are equal (plain objects, arrays, strings, numbers, booleans, null). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
    count += 1;
  }
  for (const key in right) if (Object.hasOwn(right, key)) count -= 1;
  return count === 0;
}

/**
 * The server's preparer (ADR 055): each prepared part is rendered by React once per distinct props and its HTML kept.
 * `renderToString` runs inside the page's own render; it is React's separate legacy renderer, with its own state,
 * and restores the page render's dispatcher and context values when it returns. The part's router `<Link>`s
 * resolve in a memory router at `/`: their paths are absolute, so the hrefs are the page's own.
 */
export function createMarkupPreparer(maxEntries = MAX_ENTRIES): MarkupPreparer & {
  size: () => number;
  /**
   * The UTF-8 bytes of an HTML string this preparer answered (kept with it), else undefined: React hands a long
   * inner HTML to the page's destination as the same string each time, which then needs no encoding per request.
   */
  bytes: (html: string) => Uint8Array | undefined;
} {
  const cache = new Map<string, string>();
  const encoded = new Map<string, Uint8Array>();
  const recent = new Map<string, Prepared[]>();
  const prepare = (<P extends object>(name: string, content: React.ComponentType<P>, props: P) => {
    let seen = recent.get(name);
    if (seen) for (const entry of seen) if (sameJson(entry.props, props)) return entry.html;
    const key = `${name}\u0000${JSON.stringify(props)}`;
    let html = cache.get(key);
    if (html === undefined) {
      html = renderToString(createElement(MemoryRouter, null, createElement(content, props)));
      if (cache.size >= maxEntries) {
        const oldest = cache.keys().next().value!;
        encoded.delete(cache.get(oldest)!);
        cache.delete(oldest);
      }
      cache.set(key, html);
      encoded.set(html, Buffer.from(html));
    }
    if (!seen) recent.set(name, (seen = []));
    // A copy: the caller's props object is its own to change.
    seen.unshift({ props: JSON.parse(JSON.stringify(props)), html });
    if (seen.length > RECENT_PER_PART) seen.pop();
    return html;
  }) as ReturnType<typeof createMarkupPreparer>;
  prepare.size = () => cache.size;
  prepare.bytes = (html) => encoded.get(html);
  return prepare;
}

export const prepareMarkup = createMarkupPreparer();
