import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SCROLL_HIDE_DELAY_MS } from "~/domain/chat-widget-modes";
import { createScrollHider } from "./scroll-hider";

// Issue 24, item 20: the compact bar hides on scroll and shows again 600 ms after the scrolling stops.

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function hider(pinned = () => false) {
  const changes: boolean[] = [];
  const rule = createScrollHider({
    delayMs: SCROLL_HIDE_DELAY_MS,
    onChange: (hidden) => changes.push(hidden),
    pinned,
  });
  return { rule, changes };
}

describe("createScrollHider", () => {
  it("hides on the first scroll and shows 600 ms after the last one, not before", () => {
    const { rule, changes } = hider();
    rule.scrolled();
    expect(rule.hidden).toBe(true);
    // A scroll every 100 ms for a second: it stays hidden throughout, and says so once.
    for (let step = 0; step < 10; step += 1) {
      vi.advanceTimersByTime(100);
      rule.scrolled();
    }
    expect(changes).toEqual([true]);
    vi.advanceTimersByTime(599);
    expect(rule.hidden).toBe(true);
    vi.advanceTimersByTime(1);
    expect(rule.hidden).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it("never hides while the bar has the focus, and shows at once when it takes it", () => {
    let focused = true;
    const { rule, changes } = hider(() => focused);
    rule.scrolled();
    expect(rule.hidden).toBe(false);
    focused = false;
    rule.scrolled();
    expect(rule.hidden).toBe(true);
    rule.reveal();
    expect(rule.hidden).toBe(false);
    vi.advanceTimersByTime(SCROLL_HIDE_DELAY_MS);
    expect(changes).toEqual([true, false]);
  });

  it("after dispose no timer fires", () => {
    const { rule, changes } = hider();
    rule.scrolled();
    rule.dispose();
    vi.advanceTimersByTime(SCROLL_HIDE_DELAY_MS * 2);
    expect(changes).toEqual([true]);
  });
});
