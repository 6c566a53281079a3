import { describe, expect, it } from "vitest";
import {
  addDays,
  CLINIC_TIME_ZONE,
  clinicDate,
  clinicDayBounds,
  clinicInstant,
  clinicOffsetMinutes,
  clinicTime,
  isoWeekday,
  minutesOfDay,
  startOfClinicDay,
  timeFromMinutes,
} from "./clinic-time";

const HOUR = 3_600_000;
const iso = (date: Date) => date.toISOString();

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

// Formerly features/dentist/agenda-window's own zone arithmetic; the same cases, now on the one implementation.
describe("clinic clock, 2025 cases", () => {
  it("is America/Santiago", () => {
    expect(CLINIC_TIME_ZONE).toBe("America/Santiago");
  });

  it("knows Santiago's summer and winter offsets", () => {
    expect(clinicOffsetMinutes(new Date("2025-01-15T12:00:00Z")) * 60_000).toBe(-3 * HOUR);
    expect(clinicOffsetMinutes(new Date("2025-07-15T12:00:00Z")) * 60_000).toBe(-4 * HOUR);
  });

  it("takes 'today' from the clinic's clock, not UTC", () => {
    // 01:30 UTC on the 25th is still the evening of the 24th in Santiago (UTC-3 in November).
    expect(clinicDate(new Date("2025-11-25T01:30:00Z"))).toBe("2025-11-24");
    expect(clinicDate(new Date("2025-11-25T03:00:00Z"))).toBe("2025-11-25");
  });

  it("adds calendar days across months, years and leap days", () => {
    expect(addDays("2025-12-29", 7)).toBe("2026-01-05");
    expect(addDays("2028-02-27", 2)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });
});

describe("startOfClinicDay", () => {
  it("is local midnight on ordinary days", () => {
    expect(iso(startOfClinicDay("2025-11-24"))).toBe("2025-11-24T03:00:00.000Z");
    expect(iso(startOfClinicDay("2025-06-10"))).toBe("2025-06-10T04:00:00.000Z");
  });

  it("handles the September change, when midnight does not exist (00:00 → 01:00)", () => {
    // Saturday 6 September 2025 is still on UTC-4.
    expect(iso(startOfClinicDay("2025-09-06"))).toBe("2025-09-06T04:00:00.000Z");
    // Sunday 7 September starts at the change: 00:00 -04 = 01:00 -03 = 04:00 UTC.
    expect(iso(startOfClinicDay("2025-09-07"))).toBe("2025-09-07T04:00:00.000Z");
    expect(iso(startOfClinicDay("2025-09-08"))).toBe("2025-09-08T03:00:00.000Z");
    expect(iso(startOfClinicDay("2026-09-06"))).toBe("2026-09-06T04:00:00.000Z");
  });

  it("handles the April change, when 23:00–24:00 of Saturday happens twice", () => {
    expect(iso(startOfClinicDay("2025-04-05"))).toBe("2025-04-05T03:00:00.000Z");
    // Sunday 6 April 2025 starts after the repeated hour: 00:00 -04.
    expect(iso(startOfClinicDay("2025-04-06"))).toBe("2025-04-06T04:00:00.000Z");
    expect(iso(startOfClinicDay("2026-04-05"))).toBe("2026-04-05T04:00:00.000Z");
  });
});

function hoursLong(date: string) {
  const { start, end } = clinicDayBounds(date);
  return (end.getTime() - start.getTime()) / HOUR;
}

describe("clinicDayBounds", () => {
  it("is 24 hours on ordinary days, 23 on the September Sunday and 25 on the April Saturday", () => {
    expect(hoursLong("2025-11-24")).toBe(24);
    expect(hoursLong("2025-09-07")).toBe(23);
    expect(hoursLong("2026-09-06")).toBe(23);
    expect(hoursLong("2025-04-05")).toBe(25);
    expect(hoursLong("2026-04-04")).toBe(25);
    expect(hoursLong("2026-04-05")).toBe(24);
  });

  it("contains exactly the instants the clinic's clock shows on that date", () => {
    const { start, end } = clinicDayBounds("2026-04-04");
    expect(clinicDate(new Date(start.getTime() - 1))).toBe("2026-04-03");
    expect(clinicDate(start)).toBe("2026-04-04");
    expect(clinicDate(new Date(end.getTime() - 1))).toBe("2026-04-04");
    expect(clinicDate(end)).toBe("2026-04-05");
  });
});

describe("wall-clock minutes", () => {
  it("converts between HH:mm and minutes after midnight", () => {
    expect(minutesOfDay("09:30")).toBe(570);
    expect(timeFromMinutes(570)).toBe("09:30");
    expect(timeFromMinutes(minutesOfDay("17:00"))).toBe("17:00");
    expect(() => minutesOfDay("9:30")).toThrow(RangeError);
  });
});

describe("the cached offset agrees with the time-zone data", () => {
  const reference = new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/Santiago",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const expected = (instant: Date) => {
    const parts = Object.fromEntries(reference.formatToParts(instant).map((part) => [part.type, part.value]));
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  };

  // 13 minutes, prime to 60: over two years every minute of the hour is met, in ~81,000 instants.
  it("every 13 minutes across 2025–2026, and every minute around each clock change", () => {
    const instants: Date[] = [];
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2027, 0, 1); t += 13 * 60_000) instants.push(new Date(t));
    for (const change of [
      Date.UTC(2025, 3, 6, 3),
      Date.UTC(2025, 8, 7, 4),
      Date.UTC(2026, 3, 5, 3),
      Date.UTC(2026, 8, 6, 4),
    ]) {
      for (let t = change - 90 * 60_000; t <= change + 90 * 60_000; t += 60_000) instants.push(new Date(t));
    }
    const mismatches = instants.filter(
      (instant) => `${clinicDate(instant)} ${clinicTime(instant)}` !== expected(instant),
    );
    expect(mismatches).toEqual([]);
  });
});
