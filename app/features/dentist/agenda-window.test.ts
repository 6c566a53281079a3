import { describe, expect, it } from "vitest";
import {
  addCalendarDays,
  agendaWindow,
  calendarDateIn,
  dayHeading,
  startOfDayIn,
  zoneOffsetMs,
} from "./agenda-window";

const HOUR = 3_600_000;
const iso = (date: Date) => date.toISOString();

describe("zoneOffsetMs / calendarDateIn", () => {
  it("knows Santiago's summer and winter offsets", () => {
    expect(zoneOffsetMs(new Date("2025-01-15T12:00:00Z"))).toBe(-3 * HOUR);
    expect(zoneOffsetMs(new Date("2025-07-15T12:00:00Z"))).toBe(-4 * HOUR);
  });

  it("takes 'today' from the clinic's clock, not UTC", () => {
    // 01:30 UTC on the 25th is still the evening of the 24th in Santiago (UTC-3 in November).
    expect(calendarDateIn(new Date("2025-11-25T01:30:00Z"))).toBe("2025-11-24");
    expect(calendarDateIn(new Date("2025-11-25T03:00:00Z"))).toBe("2025-11-25");
  });
});

describe("addCalendarDays", () => {
  it("crosses months and years", () => {
    expect(addCalendarDays("2025-12-29", 7)).toBe("2026-01-05");
    expect(addCalendarDays("2028-02-27", 2)).toBe("2028-02-29");
  });
});

describe("startOfDayIn", () => {
  it("is local midnight on ordinary days", () => {
    expect(iso(startOfDayIn("2025-11-24"))).toBe("2025-11-24T03:00:00.000Z");
    expect(iso(startOfDayIn("2025-06-10"))).toBe("2025-06-10T04:00:00.000Z");
  });

  it("handles the September change, when midnight does not exist (00:00 → 01:00)", () => {
    // Saturday 6 September 2025 is still on UTC-4.
    expect(iso(startOfDayIn("2025-09-06"))).toBe("2025-09-06T04:00:00.000Z");
    // Sunday 7 September starts at the change: 00:00 -04 = 01:00 -03 = 04:00 UTC.
    expect(iso(startOfDayIn("2025-09-07"))).toBe("2025-09-07T04:00:00.000Z");
    expect(iso(startOfDayIn("2025-09-08"))).toBe("2025-09-08T03:00:00.000Z");
    expect(iso(startOfDayIn("2026-09-06"))).toBe("2026-09-06T04:00:00.000Z");
  });

  it("handles the April change, when 23:00–24:00 of Saturday happens twice", () => {
    expect(iso(startOfDayIn("2025-04-05"))).toBe("2025-04-05T03:00:00.000Z");
    // Sunday 6 April 2025 starts after the repeated hour: 00:00 -04.
    expect(iso(startOfDayIn("2025-04-06"))).toBe("2025-04-06T04:00:00.000Z");
    expect(iso(startOfDayIn("2026-04-05"))).toBe("2026-04-05T04:00:00.000Z");
  });
});

describe("agendaWindow", () => {
  it("spans today and the next six days in the clinic's zone", () => {
    const window = agendaWindow(new Date("2025-11-25T01:30:00Z"));
    expect(window.today).toBe("2025-11-24");
    expect(window.days).toEqual([
      "2025-11-24",
      "2025-11-25",
      "2025-11-26",
      "2025-11-27",
      "2025-11-28",
      "2025-11-29",
      "2025-11-30",
    ]);
    expect(iso(window.start)).toBe("2025-11-24T03:00:00.000Z");
    expect(iso(window.end)).toBe("2025-12-01T03:00:00.000Z");
  });

  it("is 167 hours long across the September change", () => {
    const window = agendaWindow(new Date("2025-09-03T15:00:00Z"));
    expect(window.days[0]).toBe("2025-09-03");
    expect(window.days[6]).toBe("2025-09-09");
    expect(iso(window.start)).toBe("2025-09-03T04:00:00.000Z");
    expect(iso(window.end)).toBe("2025-09-10T03:00:00.000Z");
    expect(window.end.getTime() - window.start.getTime()).toBe(167 * HOUR);
  });

  it("is 169 hours long across the April change", () => {
    const window = agendaWindow(new Date("2025-04-02T15:00:00Z"));
    expect(iso(window.start)).toBe("2025-04-02T03:00:00.000Z");
    expect(iso(window.end)).toBe("2025-04-09T04:00:00.000Z");
    expect(window.end.getTime() - window.start.getTime()).toBe(169 * HOUR);
  });

  it("starting on the changeover Sunday itself", () => {
    const september = agendaWindow(new Date("2025-09-07T12:00:00Z"));
    expect(september.today).toBe("2025-09-07");
    expect(iso(september.start)).toBe("2025-09-07T04:00:00.000Z");
    const april = agendaWindow(new Date("2025-04-06T03:30:00Z")); // 23:30 -04 on Saturday, the second time round
    expect(april.today).toBe("2025-04-05");
    expect(iso(april.start)).toBe("2025-04-05T03:00:00.000Z");
    expect(iso(april.end)).toBe("2025-04-12T04:00:00.000Z");
  });
});

describe("dayHeading", () => {
  it("writes the weekday and date in Spanish without the year", () => {
    expect(dayHeading("2025-11-24")).toBe("lunes, 24 de noviembre");
    expect(dayHeading("2025-09-07")).toBe("domingo, 7 de septiembre");
  });
});
