import { describe, expect, it } from "vitest";
import {
  daysBetween,
  periodBetween,
  periodDays,
  periodLabel,
  pointChange,
  presetPeriod,
  relativeChange,
  shortDay,
} from "./analytics-period";

describe("reporting period", () => {
  it("the last 30 days end today in the clinic's zone, not UTC", () => {
    // 02:30 UTC on 25 Nov is still 24 Nov, 23:30 in Santiago (summer time, UTC-3).
    const period = presetPeriod(30, new Date("2026-11-25T02:30:00Z"));
    expect([period.from, period.to, period.days, period.kind]).toEqual([
      "2026-10-26",
      "2026-11-24",
      30,
      "30",
    ]);
    expect(period.start.toISOString()).toBe("2026-10-26T03:00:00.000Z");
    expect(period.end.toISOString()).toBe("2026-11-25T03:00:00.000Z");
    expect([period.previous.from, period.previous.to]).toEqual(["2026-09-26", "2026-10-25"]);
    expect(period.previous.end.getTime()).toBe(period.start.getTime());
  });

  it("a custom period is compared with the equal-length period right before it, across a clock change", () => {
    // Chile's clocks went forward on Sunday 6 Sep 2026: the previous period spans it.
    const period = periodBetween("2026-09-10", "2026-09-16");
    expect(period.days).toBe(7);
    expect([period.previous.from, period.previous.to]).toEqual(["2026-09-03", "2026-09-09"]);
    expect(period.previous.start.toISOString()).toBe("2026-09-03T04:00:00.000Z");
    expect(period.previous.end.toISOString()).toBe("2026-09-10T03:00:00.000Z");
    expect(periodDays(period)).toEqual([
      "2026-09-10",
      "2026-09-11",
      "2026-09-12",
      "2026-09-13",
      "2026-09-14",
      "2026-09-15",
      "2026-09-16",
    ]);
  });

  it("counts calendar days inclusively and refuses an empty period", () => {
    expect(daysBetween("2026-02-01", "2026-03-01")).toBe(29);
    expect(daysBetween("2028-02-01", "2028-03-01")).toBe(30);
    expect(() => periodBetween("2026-05-02", "2026-05-01")).toThrow(RangeError);
  });

  it("labels days and periods in es-CL", () => {
    expect(shortDay("2026-11-03")).toMatch(/^3 nov/);
    expect(periodLabel({ from: "2026-10-26", to: "2026-11-24" })).toMatch(
      /^26 oct\.? 2026 – 24 nov\.? 2026$/,
    );
  });
});

describe("change against the previous period", () => {
  it("is relative for counts, with sign, one decimal and an accessible wording", () => {
    expect(relativeChange(45, 40)).toEqual({
      trend: "up",
      text: "+12,5% vs. período anterior",
      srText: "Aumentó: +12,5% vs. período anterior",
    });
    expect(relativeChange(30, 40)).toMatchObject({ trend: "down", text: "-25,0% vs. período anterior" });
    expect(relativeChange(40, 40)).toMatchObject({ trend: "flat", text: "Sin cambio vs. período anterior" });
    expect(relativeChange(0, 0)).toMatchObject({ trend: "flat" });
  });

  it("has no percentage when the previous period had nothing", () => {
    expect(relativeChange(5, 0)).toMatchObject({ trend: "none", text: "Sin datos del período anterior" });
    expect(relativeChange(12, null)).toMatchObject({ trend: "none" });
    expect(relativeChange(null, 12)).toMatchObject({ trend: "none" });
  });

  it("says the current period has no data when its median is missing but the previous one had it", () => {
    expect(relativeChange(null, 12)).toEqual({
      trend: "none",
      text: "Sin datos en este período",
      srText: "Sin datos en este período",
    });
    expect(relativeChange(null, null)).toMatchObject({ text: "Sin datos en este período" });
  });

  it("is in percentage points for a rate", () => {
    expect(pointChange(0.25, 0.2)).toMatchObject({ trend: "up", text: "+5,0 pp vs. período anterior" });
    expect(pointChange(0.25, 0.2).srText).toBe("Aumentó: +5,0 puntos porcentuales vs. período anterior");
    expect(pointChange(0.1, 0.2)).toMatchObject({ trend: "down", text: "-10,0 pp vs. período anterior" });
    expect(pointChange(0.1, null)).toMatchObject({ trend: "none", text: "Sin datos del período anterior" });
    expect(pointChange(null, 0.1)).toMatchObject({ trend: "none", text: "Sin datos en este período" });
  });
});
