import { describe, expect, it } from "vitest";
import { agendaWindow, dayHeading } from "./agenda-window";

const HOUR = 3_600_000;
const iso = (date: Date) => date.toISOString();

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
