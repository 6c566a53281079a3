import { describe, expect, it } from "vitest";
import { updatedSinceContact } from "./lead-updates";

const at = (iso: string) => new Date(iso);

describe("updatedSinceContact ('Actualizado')", () => {
  it("is off for a lead that never asked again", () => {
    expect(updatedSinceContact(null, null)).toBe(false);
    expect(updatedSinceContact(null, at("2026-11-20T10:00:00Z"))).toBe(false);
  });

  it("is on when the person asked again and nobody has contacted them yet", () => {
    expect(updatedSinceContact(at("2026-11-20T10:00:00Z"), null)).toBe(true);
  });

  it("is on when the new request came after the last contact, and off once staff contact them again", () => {
    expect(updatedSinceContact(at("2026-11-21T10:00:00Z"), at("2026-11-20T10:00:00Z"))).toBe(true);
    expect(updatedSinceContact(at("2026-11-21T10:00:00Z"), at("2026-11-21T10:05:00Z"))).toBe(false);
    expect(updatedSinceContact(at("2026-11-21T10:00:00Z"), at("2026-11-21T10:00:00Z"))).toBe(false);
  });
});
