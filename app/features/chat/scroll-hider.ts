/**
 * The compact bar's scroll rule (spec 001 §9, "Scroll hide delay 600 ms"; issue 24, item 20): it hides while the page
 * scrolls and shows again `delayMs` after the last scroll. While the person is in the bar (it holds the focus) it
 * stays. Pure and client-safe: timers are injected, so the rule is tested without a browser.
 */
export interface ScrollHiderOptions {
  delayMs: number;
  onChange: (hidden: boolean) => void;
  /** True while the bar must stay (it has the focus). */
  pinned?: () => boolean;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export function createScrollHider(options: ScrollHiderOptions) {
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer: unknown) => clearTimeout(timer as number));
  let hidden = false;
  let timer: unknown = null;

  const set = (value: boolean) => {
    if (hidden === value) return;
    hidden = value;
    options.onChange(value);
  };
  const stopTimer = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };

  return {
    /** A scroll event: hide now, and show again `delayMs` after the last one. */
    scrolled() {
      stopTimer();
      if (options.pinned?.()) return set(false);
      set(true);
      timer = setTimer(() => {
        timer = null;
        set(false);
      }, options.delayMs);
    },
    /** Show at once (the bar took the focus, the rule is switched off). */
    reveal() {
      stopTimer();
      set(false);
    },
    dispose() {
      stopTimer();
    },
    get hidden() {
      return hidden;
    },
  };
}
