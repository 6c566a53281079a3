import { createContext, createElement, use, type ComponentType, type HTMLAttributes } from "react";

/**
 * Renders `content` with `props` to HTML, or answers the HTML it rendered before for the same name and props. Only the
 * server has one (app/lib/prepared-markup.server.tsx, provided by entry.server.tsx); in the browser the part renders
 * as any other.
 */
export type MarkupPreparer = <P extends object>(name: string, content: ComponentType<P>, props: P) => string;

export const MarkupPreparerContext = createContext<MarkupPreparer | null>(null);

/** The host elements a prepared part can be: its tag and attributes render as usual, its inside is prepared. */
type Host = "section" | "footer" | "nav" | "div";

interface PreparedProps<P extends object, L extends object = never> {
  as: Host;
  /** The host element's own attributes and handlers (rendered by the page as usual: not part of the cache key). */
  attributes: Omit<HTMLAttributes<HTMLElement>, "children" | "dangerouslySetInnerHTML">;
  /** The part's name in the preparer's cache: one per `content` component. */
  name: string;
  /**
   * What goes inside the host element: a component whose HTML depends on nothing but `props` (no router data, no
   * state, no `useId`, nothing hoisted into the head), which may use router `<Link>`s with absolute paths.
   */
  content: ComponentType<P & { live?: L }>;
  /** All that `content` renders from: plain JSON values (they are the cache key). */
  props: P;
  /**
   * What the content needs in the browser only and never renders into HTML: its event handlers (a form's submit and
   * input checks). Passed as the `live` prop where the part renders as usual; the server's prepared HTML is made
   * without it.
   */
  live?: L;
  /**
   * `false`: this render is not kept, the part renders as usual (an answer to a form post, shown once to one
   * visitor, has no business in the cache).
   */
  reuse?: boolean;
}

/**
 * A static part of a page whose HTML the server renders once and then reuses (ADR 055): React writes it as one
 * string instead of a few pieces per element and attribute. In the browser the same component renders inside the
 * same host element, so hydration finds exactly the markup it would have written and attaches to it (links work as
 * router links once hydrated).
 */
export function Prepared<P extends object, L extends object = never>({
  as,
  attributes,
  name,
  content,
  props,
  live,
  reuse = true,
}: PreparedProps<P, L>) {
  const prepare = use(MarkupPreparerContext);
  if (!prepare || !reuse) return createElement(as, attributes, createElement(content, { ...props, live }));
  return createElement(as, {
    ...attributes,
    dangerouslySetInnerHTML: { __html: prepare(name, content as ComponentType<P>, props) },
  });
}
