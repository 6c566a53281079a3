import { describe, expect, it } from "vitest";
import { applyDelta, withoutDraft } from "./chat-client";

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
