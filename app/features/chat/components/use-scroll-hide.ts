import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type CSSProperties } from "react";
import { SCROLL_HIDE_DELAY_MS } from "~/domain/chat-widget-modes";
import { createScrollHider } from "../scroll-hider";

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
const subscribeMotion = (onChange: () => void) => {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};

/**
 * The compact bar hides while the page scrolls and comes back 600 ms after it stops (spec 001 §9; the rule is
 * scroll-hider.ts). Returns props to spread on the bar: hidden means invisible (out of the tab order and the
 * accessibility tree too, so no one tabs into a bar they cannot see); it never hides while it holds the focus.
 */
export function useScrollHide(enabled: boolean) {
  const [hidden, setHidden] = useState(false);
  const reducedMotion = useSyncExternalStore(
    subscribeMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
  const element = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!enabled) return;
    const rule = createScrollHider({
      delayMs: SCROLL_HIDE_DELAY_MS,
      onChange: setHidden,
      pinned: () => Boolean(element.current?.contains(document.activeElement)),
    });
    const onScroll = () => rule.scrolled();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      rule.dispose();
      setHidden(false);
    };
  }, [enabled]);

  const ref = useCallback((node: HTMLElement | null) => {
    element.current = node;
  }, []);

  const shownHidden = enabled && hidden;
  const style: CSSProperties = {
    transition: reducedMotion
      ? "visibility 0s"
      : "opacity 150ms ease, transform 150ms ease, visibility 150ms",
    ...(shownHidden
      ? {
          visibility: "hidden",
          opacity: 0,
          pointerEvents: "none",
          ...(reducedMotion ? {} : { transform: "translateY(calc(100% + 20px))" }),
        }
      : {}),
  };
  return { ref, style, "data-scroll-hidden": shownHidden ? "true" : "false" } as const;
}
