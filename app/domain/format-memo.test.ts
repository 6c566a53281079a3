import { describe, expect, it } from "vitest";
import {
  CLINIC_TIME_ZONE,
  formatClinicTime,
  formatDateWithWeekday,
  formatShortDay,
  formatWeekdayShort,
} from "./format";

// The memoised formatters answer exactly what a fresh Intl formatter answers, also once their maps were emptied.

const fresh = {
  weekday: new Intl.DateTimeFormat("es-CL", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }),
  weekdayShort: new Intl.DateTimeFormat("es-CL", { weekday: "short", timeZone: "UTC" }),
  shortDay: new Intl.DateTimeFormat("es-CL", { day: "numeric", month: "short", timeZone: "UTC" }),
  time: new Intl.DateTimeFormat("es-CL", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: CLINIC_TIME_ZONE,
  }),
};

/** `count` consecutive calendar dates from `from`. */
function dates(from: string, count: number): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return Array.from({ length: count }, (_, day) =>
    new Date(start + day * 86_400_000).toISOString().slice(0, 10),
  );
}

describe("memoised calendar-date formatters", () => {
  it("answer as Intl does, twice over more dates than they keep (the map is emptied and refilled)", () => {
    const all = dates("2024-01-01", 1_500);
    for (let round = 0; round < 2; round += 1) {
      for (const date of all) {
        const at = new Date(`${date}T00:00:00Z`);
        expect(formatDateWithWeekday(date)).toBe(fresh.weekday.format(at));
        expect(formatWeekdayShort(date)).toBe(fresh.weekdayShort.format(at));
        expect(formatShortDay(date)).toBe(fresh.shortDay.format(at));
      }
    }
  });

  it("refuse an invalid date every time (nothing kept for it)", () => {
    for (let round = 0; round < 2; round += 1) {
      expect(() => formatDateWithWeekday("2024-1-5")).toThrow(RangeError);
      expect(() => formatWeekdayShort("mañana")).toThrow(RangeError);
      expect(() => formatShortDay("")).toThrow(RangeError);
    }
  });
});

describe("memoised formatClinicTime", () => {
  it("answers as Intl does for every instant of a minute, across both of 2026's clock changes", () => {
    // Chile's changes in 2026: 5 April (04:00 → 03:00) and 6 September (00:00 → 01:00), clinic time.
    const around = [Date.parse("2026-04-05T02:00:00Z"), Date.parse("2026-09-06T03:00:00Z")];
    for (const centre of around) {
      for (let offset = -3 * 3_600_000; offset <= 3 * 3_600_000; offset += 7 * 60_000 + 13_000) {
        for (const within of [0, 1, 29_999, 59_999]) {
          const instant = new Date(centre + offset - ((centre + offset) % 60_000) + within);
          expect(formatClinicTime(instant)).toBe(fresh.time.format(instant));
        }
      }
    }
  });

  it("keeps answering correctly after more minutes than it keeps", () => {
    const start = Date.parse("2026-01-01T00:00:00Z");
    for (let minute = 0; minute < 2_500; minute += 1) {
      const instant = new Date(start + minute * 60_000 + 30_000);
      expect(formatClinicTime(instant)).toBe(fresh.time.format(instant));
    }
  });

  it("still throws for an invalid date", () => {
    expect(() => formatClinicTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => formatClinicTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
