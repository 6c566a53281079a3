import { useLayoutEffect, type RefObject } from "react";

/**
 * Keeps what a visitor typed into a controlled field before the page hydrated. React leaves the field's text in place
 * when it hydrates but its state holds the server's value (""), so the next render would wipe the text (and a send
 * would read the empty state): on mount this hands the field's text to `onTyped` when it differs from `value`. On a
 * client-side visit the field is new and equals its state, so nothing happens. A layout effect: it runs right after
 * the hydrating commit, before any other render can reset the field.
 */
export function useTypedBeforeHydration(
  field: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  onTyped: (text: string) => void,
) {
  useLayoutEffect(() => {
    const typed = field.current?.value;
    if (typed && typed !== value) onTyped(typed);
    // Once, on mount: later differences are React's own updates.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/**
 * The same for a whole form of controlled fields: on mount, each of `names` whose value in the form (its FormData:
 * text typed, a radio chosen) differs from `values` is handed to `onTyped`, all at once. A name the form does not
 * hold (no radio chosen, a field not shown) is left as it is.
 */
export function useFormTypedBeforeHydration(
  form: RefObject<HTMLFormElement | null>,
  values: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
  onTyped: (changed: Record<string, string>) => void,
) {
  useLayoutEffect(() => {
    if (!form.current) return;
    const data = new FormData(form.current);
    const changed: Record<string, string> = {};
    for (const name of names) {
      const typed = data.get(name);
      if (typeof typed === "string" && typed !== (values[name] ?? "")) changed[name] = typed;
    }
    if (Object.keys(changed).length > 0) onTyped(changed);
    // Once, on mount: later differences are React's own updates.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
