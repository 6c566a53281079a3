import { createElement, lazy, use, useEffect, useState, type ComponentType } from "react";
import { useFetchers, useLocation, useNavigation } from "react-router";

export interface DeferredPart {
  Component: ComponentType;
  /**
   * The `<Suspense>` fallback to render it with. It only shows when React renders the boundary on the client instead
   * of hydrating it (an update that reached it before its code, a hydration mismatch elsewhere on the page): then
   * the server's element is gone, so nothing would ever come near the viewport. The fallback shows the server's HTML
   * of the part as it was (its links and form work without JavaScript) and fetches the code at once.
   */
  Fallback: ComponentType;
  /** Starts fetching the code now (idempotent). */
  loadNow: () => void;
  /** While the page renders without server HTML for the part (a client-side visit) and its code is missing. */
  pendingOnClient: () => Promise<unknown> | undefined;
}

/**
 * The server's side: the module is imported when this module loads (at boot), so the part renders inline; a render
 * that comes first suspends on the import (the part then streams in a moment later).
 */
function renderedAtOnce(load: () => Promise<ComponentType>): DeferredPart {
  let loaded: ComponentType | undefined;
  const loading = load().then((component) => {
    loaded = component;
  });
  function Component() {
    if (!loaded) throw loading;
    return createElement(loaded);
  }
  return { Component, Fallback: () => null, loadNow: () => undefined, pendingOnClient: () => undefined };
}

/**
 * A part of a server-rendered page whose code the browser fetches only when the part comes near the viewport
 * (ADR 022): until then React keeps the server's HTML as it is (a dehydrated Suspense boundary), where links and
 * forms work as they do before hydration, and hydrates it once the code is here. On the server, and on a
 * client-side visit where there is no server HTML to find, it renders at once.
 *
 * Render the returned `Component` inside its own `<Suspense fallback={<part.Fallback />}>`, with no props from the
 * page (nothing may re-render it while it waits), and call `useLoadOnRouterActivity` in the page: a router update (navigation, fetcher, revalidation)
 * reaches every boundary of the page, and React cannot finish it while a boundary's code is still missing.
 */
export function hydrateWhenNear(elementId: string, load: () => Promise<ComponentType>): DeferredPart {
  if (import.meta.env.SSR) return renderedAtOnce(load);
  let loading: Promise<{ default: ComponentType }> | undefined;
  let startNow: (() => void) | undefined;
  let loaded = false;
  // The server's HTML of the part, kept while it is in the document: what the fallback shows if React drops it.
  let serverHtml = document.getElementById(elementId)?.outerHTML;
  const begin = () =>
    (loading ??= load().then((component) => {
      loaded = true;
      return { default: component };
    }));

  const Component = lazy(() => {
    if (loading) return loading;
    const element = document.getElementById(elementId);
    if (!element || !element.isConnected || typeof IntersectionObserver === "undefined") return begin();
    serverHtml = element.outerHTML;
    return new Promise<{ default: ComponentType }>((resolve, reject) => {
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) startNow?.();
        },
        // Half a screen ahead, so a scrolling reader rarely meets the part before its code.
        { rootMargin: "50% 0px" },
      );
      startNow = () => {
        startNow = undefined;
        observer.disconnect();
        begin().then(resolve, reject);
      };
      observer.observe(element);
    });
  });

  function loadNow() {
    if (startNow) startNow();
    else void begin();
  }

  function Fallback() {
    useEffect(loadNow, []);
    if (!serverHtml) return null;
    // Markup this page's own server render produced moments ago, not input: shown as it was until the code is here.
    return createElement("div", {
      style: { display: "contents" },
      dangerouslySetInnerHTML: { __html: serverHtml },
    });
  }

  return {
    Component,
    Fallback,
    loadNow,
    pendingOnClient() {
      if (loaded || document.getElementById(elementId)) return undefined;
      return begin();
    },
  };
}

/**
 * Loads the given parts as soon as the router does anything on this page (a navigation starts, a fetcher runs, the
 * location changes). Called during render on purpose: the render of that update is the one that needs them.
 * On a client-side visit (no server HTML to keep) the page waits for the parts' code before it renders, so the
 * navigation shows the whole page at once and a `#hash` target in a part exists when the router scrolls to it.
 */
export function useLoadOnRouterActivity(...parts: DeferredPart[]) {
  for (const part of parts) {
    const pending = part.pendingOnClient();
    if (pending) use(pending);
  }
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const { key } = useLocation();
  const [firstKey] = useState(key);
  if (navigation.state !== "idle" || fetchers.length > 0 || key !== firstKey) {
    for (const part of parts) part.loadNow();
  }
}
