import { describe, expect, it } from "vitest";
import { draftFragment, readDraftFragment } from "./chat-draft-handover";

describe("the compact bar's text handed to the room (issue 24, item 4)", () => {
  it("round-trips text with accents, spaces and symbols through the fragment", () => {
    const text = "¿Cuánto cuesta un implante? & otras dudas #1";
    expect(readDraftFragment(draftFragment({ text, send: true }))).toEqual({ text, send: true });
    expect(readDraftFragment(draftFragment({ text, send: false }))).toEqual({ text, send: false });
  });

  it("carries nothing for an empty bar", () => {
    expect(draftFragment(null)).toBe("");
    expect(draftFragment({ text: "   ", send: true })).toBe("");
    expect(readDraftFragment("")).toBeNull();
    expect(readDraftFragment("#send=1")).toBeNull();
  });

  it("bounds the text", () => {
    const handed = readDraftFragment(draftFragment({ text: "a".repeat(5000), send: false }));
    expect(handed?.text).toHaveLength(2000);
  });
});
