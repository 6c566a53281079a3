import { useSyncExternalStore } from "react";
import { formatLeadAge } from "~/domain/lead-age";

/**
 * One clock for every lead age on the page, ticking every 30 s (the ages show whole minutes). During
 * SSR and hydration the snapshot is null, so the browser first renders exactly the server's text (no hydration
 * mismatch) and switches to its own clock right after.
 */
const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((notify) => notify());
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const clientNow = () => now;
const serverNow = () => null;

/** "hace 5 min" for an ISO instant, kept current without a reload; `serverText` is the loader's rendering. */
export function LeadAge({ at, serverText }: { at: string; serverText: string }) {
  const current = useSyncExternalStore(subscribe, clientNow, serverNow);
  const text = current === null ? serverText : formatLeadAge(new Date(at), new Date(current));
  return <time dateTime={at}>{text}</time>;
}
