import { describe, expect, it } from "vitest";
import { elapsedSince, formatElapsed, formatLeadAge } from "./lead-age";

const now = new Date("2025-11-24T15:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("elapsedSince", () => {
  it("counts minutes under 60", () => {
    expect(elapsedSince(ago(0), now)).toEqual({ value: 0, unit: "minutes" });
    expect(elapsedSince(ago(59 * 1000), now)).toEqual({ value: 0, unit: "minutes" });
    expect(elapsedSince(ago(5 * MINUTE + 59_000), now)).toEqual({ value: 5, unit: "minutes" });
    expect(elapsedSince(ago(59 * MINUTE + 59_999), now)).toEqual({ value: 59, unit: "minutes" });
  });

  it("switches to hours at 60 minutes and stays under 24", () => {
    expect(elapsedSince(ago(60 * MINUTE), now)).toEqual({ value: 1, unit: "hours" });
    expect(elapsedSince(ago(119 * MINUTE), now)).toEqual({ value: 1, unit: "hours" });
    expect(elapsedSince(ago(23 * HOUR + 59 * MINUTE), now)).toEqual({ value: 23, unit: "hours" });
  });

  it("switches to days at 24 hours", () => {
    expect(elapsedSince(ago(DAY), now)).toEqual({ value: 1, unit: "days" });
    expect(elapsedSince(ago(2 * DAY - 1), now)).toEqual({ value: 1, unit: "days" });
    expect(elapsedSince(ago(45 * DAY + 3 * HOUR), now)).toEqual({ value: 45, unit: "days" });
  });

  it("treats a future instant as no time at all", () => {
    expect(elapsedSince(new Date(now.getTime() + 5 * MINUTE), now)).toEqual({ value: 0, unit: "minutes" });
  });
});

describe("formatElapsed / formatLeadAge", () => {
  it("writes Spanish units with singular and plural", () => {
    expect(formatElapsed({ value: 12, unit: "minutes" })).toBe("12 min");
    expect(formatElapsed({ value: 1, unit: "hours" })).toBe("1 hora");
    expect(formatElapsed({ value: 5, unit: "hours" })).toBe("5 horas");
    expect(formatElapsed({ value: 1, unit: "days" })).toBe("1 día");
    expect(formatElapsed({ value: 1200, unit: "days" })).toBe("1.200 días");
  });

  it("prefixes 'hace' and handles the first minute", () => {
    expect(formatLeadAge(ago(20 * 1000), now)).toBe("hace menos de 1 min");
    expect(formatLeadAge(ago(7 * MINUTE), now)).toBe("hace 7 min");
    expect(formatLeadAge(ago(3 * HOUR), now)).toBe("hace 3 horas");
    expect(formatLeadAge(ago(2 * DAY), now)).toBe("hace 2 días");
  });
});
