import { lazy, Suspense, useEffect, useState, type CSSProperties } from "react";

// The toast library is fetched after the page has hydrated and the browser is idle, so it is never part of a public
// page's initial JavaScript (DESIGN §5). A `toast()` called before the toaster subscribes is not lost: the library
// replays the toasts still active when a toaster subscribes.
const Toaster = lazy(() => import("sonner").then((module) => ({ default: module.Toaster })));

const TOAST_COLOURS = {
  "--success-text": "#065f46",
  "--error-text": "#991b1b",
  "--info-text": "#1e3a8a",
  "--warning-text": "#7c2d12",
} as CSSProperties;

/**
 * The one toaster of the app (issue 24, item 18), mounted by the root: any page confirms an action with
 * `toast.success(...)` from "sonner". At most one toast at a time, 5 s, as the clinic's specification sets them.
 * Bottom centre, clear of the fixed helpers at the bottom right; on a phone it sits above them.
 */
export function AppToaster() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback !== "function") {
      const timer = window.setTimeout(() => setReady(true), 200);
      return () => window.clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(() => setReady(true), { timeout: 1500 });
    return () => window.cancelIdleCallback(handle);
  }, []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        position="bottom-center"
        visibleToasts={1}
        duration={5000}
        richColors
        closeButton
        swipeDirections={["bottom", "right"]}
        // On a phone the toast spans the screen: above the round helpers (56 px + their 16 px margin).
        mobileOffset={{ bottom: 88, left: 16, right: 16 }}
        containerAriaLabel="Notificaciones"
        toastOptions={{ closeButtonAriaLabel: "Cerrar notificación" }}
        // The library's rich colours put 13 px text at 4.25:1 on its pale backgrounds; these keep its backgrounds and
        // reach at least 7:1 (WCAG AA needs 4.5:1).
        style={TOAST_COLOURS}
      />
    </Suspense>
  );
}
