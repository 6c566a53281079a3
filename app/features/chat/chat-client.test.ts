import { describe, expect, it } from "vitest";
import { applyDelta, retryAfterMs, withoutDraft } from "./chat-client";

describe("the agent's streamed draft (agent-delta events)", () => {
  it("grows with pieces at its end, ignores a piece after a gap, and ends on done", () => {
    let drafts = applyDelta({}, { id: "a", offset: 0, delta: "Hola" });
    drafts = applyDelta(drafts, { id: "a", offset: 4, delta: ", soy" });
    expect(drafts).toEqual({ a: "Hola, soy" });
    // A piece that does not start where the draft ends (one was missed): the draft stops growing.
    expect(applyDelta(drafts, { id: "a", offset: 20, delta: "tarde" })).toBe(drafts);
    expect(applyDelta(drafts, { id: "a", offset: 0, delta: "Hola" })).toBe(drafts);
    expect(applyDelta(drafts, { id: "a", offset: 9, delta: "", done: true })).toEqual({});
  });

  it("the stored message replaces its draft; other drafts stay", () => {
    const drafts = { a: "uno", b: "dos" };
    expect(withoutDraft(drafts, "a")).toEqual({ b: "dos" });
    expect(withoutDraft(drafts, "zzz")).toBe(drafts);
  });
});

describe("a capped stream's pause before it tries again", () => {
  it("follows Retry-After within 1 s and 1 min, else the default", () => {
    expect(retryAfterMs("10", 2000)).toBe(10_000);
    expect(retryAfterMs("0", 2000)).toBe(1000);
    expect(retryAfterMs("86400", 2000)).toBe(60_000);
    expect(retryAfterMs(null, 2000)).toBe(2000);
    expect(retryAfterMs("mañana", 2000)).toBe(2000);
  });
});
