import { describe, expect, it } from "vitest";
import { clinicMorningFor } from "./clinic-morning.mjs";

const at = (iso: string) => clinicMorningFor(new Date(iso))?.toISOString() ?? null;

describe("the next clinic morning (scripts/test-all.sh's second e2e pass)", () => {
  it("is not needed on a weekday between 08:00 and 17:00 in Santiago", () => {
    expect(at("2026-11-30T11:00:00Z")).toBeNull(); // Monday 08:00
    expect(at("2026-11-30T19:59:00Z")).toBeNull(); // Monday 16:59
  });

  it("is 10:00 the next weekday in the evening, at night and on weekends", () => {
    expect(at("2026-11-30T20:00:00Z")).toBe("2026-12-01T13:00:00.000Z"); // Monday 17:00 → Tuesday
    expect(at("2026-12-01T10:59:00Z")).toBe("2026-12-01T13:00:00.000Z"); // Tuesday 07:59 → the same morning
    expect(at("2026-11-28T03:05:00Z")).toBe("2026-11-30T13:00:00.000Z"); // Saturday 00:05 → Monday
    expect(at("2026-12-04T21:00:00Z")).toBe("2026-12-07T13:00:00.000Z"); // Friday 18:00 → Monday
  });

  it("follows Santiago's offset across the clock changes (UTC−4 in winter)", () => {
    expect(at("2026-04-04T12:00:00Z")).toBe("2026-04-06T14:00:00.000Z");
    expect(at("2026-09-05T12:00:00Z")).toBe("2026-09-07T13:00:00.000Z");
  });
});
