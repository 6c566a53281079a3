import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import type { MarkupPreparer } from "~/lib/prepared-markup";

/** Distinct (part, props) pairs kept: a handful per part (signed in or not, the year); the oldest goes first. */
const MAX_ENTRIES = 64;

/**
 * The server's preparer (ADR 055): each prepared part is rendered by React once per distinct props and its HTML kept.
 * `renderToString` runs inside the page's own render; it is React's separate legacy renderer, with its own state,
 * and restores the page render's dispatcher and context values when it returns. The part's router `<Link>`s
 * resolve in a memory router at `/`: their paths are absolute, so the hrefs are the page's own.
 */
export function createMarkupPreparer(maxEntries = MAX_ENTRIES): MarkupPreparer & { size: () => number } {
  const cache = new Map<string, string>();
  const prepare = (<P extends object>(name: string, content: React.ComponentType<P>, props: P) => {
    const key = `${name}\u0000${JSON.stringify(props)}`;
    let html = cache.get(key);
    if (html === undefined) {
      html = renderToString(createElement(MemoryRouter, null, createElement(content, props)));
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      cache.set(key, html);
    }
    return html;
  }) as MarkupPreparer & { size: () => number };
  prepare.size = () => cache.size;
  return prepare;
}

export const prepareMarkup = createMarkupPreparer();
