import { describe, expect, it } from "vitest";
import {
  addDays,
  clinicDate,
  clinicInstant,
  clinicOffsetMinutes,
  clinicTime,
  isoWeekday,
} from "./clinic-time";

describe("clinic clock", () => {
  it("is UTC-3 in summer and UTC-4 in winter", () => {
    expect(clinicOffsetMinutes(new Date("2026-01-15T12:00:00Z"))).toBe(-180);
    expect(clinicOffsetMinutes(new Date("2026-07-15T12:00:00Z"))).toBe(-240);
  });

  it("gives the clinic's date, not UTC's", () => {
    // 01:30 UTC on the 16th is still the 15th in Santiago.
    expect(clinicDate(new Date("2026-01-16T01:30:00Z"))).toBe("2026-01-15");
    expect(clinicTime(new Date("2026-01-16T01:30:00Z"))).toBe("22:30");
  });

  it("converts wall-clock times to instants on both sides of the changes", () => {
    expect(clinicInstant("2026-01-15", "09:30").toISOString()).toBe("2026-01-15T12:30:00.000Z");
    expect(clinicInstant("2026-07-15", "09:30").toISOString()).toBe("2026-07-15T13:30:00.000Z");
    // 2026: clocks go forward on Sunday 6 September at 00:00 and back on Sunday 5 April at 00:00.
    expect(clinicInstant("2026-09-07", "09:00").toISOString()).toBe("2026-09-07T12:00:00.000Z");
    expect(clinicInstant("2026-09-05", "09:00").toISOString()).toBe("2026-09-05T13:00:00.000Z");
    expect(clinicInstant("2026-04-06", "09:00").toISOString()).toBe("2026-04-06T13:00:00.000Z");
    expect(clinicInstant("2026-04-03", "09:00").toISOString()).toBe("2026-04-03T12:00:00.000Z");
  });

  it("starts change days at their first real instant", () => {
    // Spring: 00:00 does not exist on Sunday 6 Sep 2026; the day starts at 01:00 (04:00Z).
    expect(clinicInstant("2026-09-06", "00:00").toISOString()).toBe("2026-09-06T04:00:00.000Z");
    expect(clinicDate(clinicInstant("2026-09-06", "00:00"))).toBe("2026-09-06");
    // Autumn: Sunday 5 Apr 2026 starts at 00:00 winter time (04:00Z), after Saturday's repeated 23:00 hour.
    expect(clinicInstant("2026-04-05", "00:00").toISOString()).toBe("2026-04-05T04:00:00.000Z");
    expect(clinicInstant("2025-09-07", "00:00").toISOString()).toBe("2025-09-07T04:00:00.000Z");
    expect(clinicInstant("2025-04-06", "00:00").toISOString()).toBe("2025-04-06T04:00:00.000Z");
    // The repeated hour resolves to its first occurrence (summer time, UTC-3).
    expect(clinicInstant("2026-04-04", "23:30").toISOString()).toBe("2026-04-05T02:30:00.000Z");
  });

  it("round-trips every slot of a change day", () => {
    for (const date of ["2026-09-06", "2026-04-05", "2026-04-04"]) {
      for (const time of ["09:00", "11:30", "14:00", "17:00"]) {
        const instant = clinicInstant(date, time);
        expect(clinicDate(instant)).toBe(date);
        expect(clinicTime(instant)).toBe(time);
      }
    }
  });

  it("counts calendar days and weekdays", () => {
    expect(addDays("2026-02-27", 2)).toBe("2026-03-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(isoWeekday("2026-11-23")).toBe(1);
    expect(isoWeekday("2026-11-22")).toBe(7);
  });

  it("refuses malformed input", () => {
    expect(() => clinicInstant("2026-13-01", "09:00")).toThrow(RangeError);
    expect(() => clinicInstant("2026-01-01", "25:00")).toThrow(RangeError);
  });
});
