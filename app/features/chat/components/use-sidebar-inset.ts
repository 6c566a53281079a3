import { useLayoutEffect, type RefObject } from "react";
import { pageInset, SIDEBAR_GAP_FIX_MS, type ChatSidebar } from "~/domain/chat-widget-modes";

/**
 * A docked panel (sidebar left or right) takes its width from the page instead of covering it: the page's body gets
 * that much padding on the panel's side, measured from the panel itself, at once and again after 150 ms (spec 001
 * §9, "Sidebar gap fix after 150 ms": by then the panel and the page's scrollbar have settled, so no gap and no
 * overlap remain), and on every resize. The page gets its own padding back when the panel floats again or closes.
 */
export function useSidebarInset(
  panel: RefObject<HTMLElement | null>,
  sidebar: ChatSidebar,
  options: { fullscreen: boolean; mobile: boolean },
) {
  const { fullscreen, mobile } = options;
  useLayoutEffect(() => {
    if (sidebar === "none" || fullscreen || mobile) return;
    const body = document.body;
    const before = { left: body.style.paddingLeft, right: body.style.paddingRight };
    const measure = () => {
      const inset = pageInset(sidebar, panel.current?.getBoundingClientRect().width ?? 0, {
        fullscreen,
        mobile,
      });
      body.style.paddingLeft = inset.left ? `${inset.left}px` : before.left;
      body.style.paddingRight = inset.right ? `${inset.right}px` : before.right;
      body.dataset.chatSidebar = sidebar;
    };
    measure();
    const gapFix = setTimeout(measure, SIDEBAR_GAP_FIX_MS);
    window.addEventListener("resize", measure);
    return () => {
      clearTimeout(gapFix);
      window.removeEventListener("resize", measure);
      body.style.paddingLeft = before.left;
      body.style.paddingRight = before.right;
      delete body.dataset.chatSidebar;
    };
  }, [panel, sidebar, fullscreen, mobile]);
}
