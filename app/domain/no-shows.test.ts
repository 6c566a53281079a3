import { describe, expect, it } from "vitest";
import {
  dentistAttendanceDate,
  DEFAULT_NO_SHOW_RULE,
  markNoShowDecision,
  noShowCallMessage,
  noShowCountText,
  noShowWindowStart,
  reachesNoShowThreshold,
  sameDayLastYear,
  statusAfterUndo,
  undoNoShowDecision,
} from "./no-shows";

// 2026-11-27 15:00 in Santiago (UTC-3, summer time).
const now = new Date("2026-11-27T18:00:00Z");
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);

describe("markNoShowDecision", () => {
  it.each([
    ["scheduled", 1, true],
    ["confirmed", 0, true],
    ["scheduled", -1, false], // not started yet
    ["in_progress", 1, false],
    ["completed", 1, false],
    ["cancelled", 1, false],
    ["no_show", 1, false],
    ["pending_payment", 1, false],
    ["payment_failed", 1, false],
    ["confirmed", 24 * 30, true],
    ["confirmed", 24 * 31 + 4, false], // beyond the 30-day window
  ] as const)("%s that started %d h ago → %s", (status, hours, allowed) => {
    expect(markNoShowDecision({ status, startsAt: hoursAgo(hours) }, now).allowed).toBe(allowed);
  });

  it("explains the refusal in Spanish", () => {
    const decision = markNoShowDecision({ status: "scheduled", startsAt: hoursAgo(-2) }, now);
    expect(decision).toEqual({ allowed: false, reason: expect.stringContaining("aún no comienza") });
  });
});

describe("undoNoShowDecision", () => {
  it("undoes a mark of the same clinic day", () => {
    expect(undoNoShowDecision({ status: "no_show", noShowMarkedAt: hoursAgo(10) }, now).allowed).toBe(true);
  });

  it("refuses a mark of the day before on the clinic's calendar, though fewer than 24 h ago", () => {
    // 2026-11-26 23:30 in Santiago is 02:30 UTC on the 27th: the same UTC day, not the same clinic day.
    const lateYesterday = new Date("2026-11-27T02:30:00Z");
    expect(undoNoShowDecision({ status: "no_show", noShowMarkedAt: lateYesterday }, now).allowed).toBe(false);
  });

  it("refuses an appointment that is not a no-show", () => {
    expect(undoNoShowDecision({ status: "scheduled", noShowMarkedAt: null }, now).allowed).toBe(false);
  });

  it("goes back to confirmed only if the patient had confirmed", () => {
    expect(statusAfterUndo(hoursAgo(30))).toBe("confirmed");
    expect(statusAfterUndo(null)).toBe("scheduled");
  });
});

describe("the 12-month window", () => {
  it("starts the clinic day after the same date last year, at Santiago's midnight", () => {
    // 2025-11-28 00:00 in Santiago is UTC-3 (summer time).
    expect(noShowWindowStart(now).toISOString()).toBe("2025-11-28T03:00:00.000Z");
  });

  it("uses the winter offset when last year's date was in winter", () => {
    // 2025-06-16 00:00 in Santiago is UTC-4.
    expect(noShowWindowStart(new Date("2026-06-15T16:00:00Z")).toISOString()).toBe(
      "2025-06-16T04:00:00.000Z",
    );
  });

  it("takes 29 February back to 28 February", () => {
    expect(sameDayLastYear("2028-02-29")).toBe("2027-02-28");
    expect(sameDayLastYear("2026-01-01")).toBe("2025-01-01");
  });
});

describe("reachesNoShowThreshold", () => {
  it.each([
    [0, false],
    [1, false],
    [2, true],
    [5, true],
  ])("%d no-shows with the default rule (2) → %s", (count, expected) => {
    expect(reachesNoShowThreshold(count, DEFAULT_NO_SHOW_RULE)).toBe(expected);
  });

  it("never applies when the clinic turned the rule off", () => {
    expect(reachesNoShowThreshold(9, { enabled: false, threshold: 2 })).toBe(false);
  });

  it("follows the clinic's threshold", () => {
    expect(reachesNoShowThreshold(2, { enabled: true, threshold: 3 })).toBe(false);
    expect(reachesNoShowThreshold(1, { enabled: true, threshold: 1 })).toBe(true);
  });
});

describe("wording", () => {
  it("counts in Spanish and gives the phone", () => {
    expect(noShowCountText(1)).toBe("1 inasistencia en 12 meses");
    expect(noShowCountText(3)).toBe("3 inasistencias en 12 meses");
    expect(noShowCallMessage(2, "+56 2 2345 6789")).toContain("llámanos al +56 2 2345 6789");
  });
});

describe("dentistAttendanceDate", () => {
  const today = "2026-11-27";
  it("is the asked day within the marking window, else today", () => {
    expect(dentistAttendanceDate(null, today)).toBe(today);
    expect(dentistAttendanceDate("2026-11-26", today)).toBe("2026-11-26");
    expect(dentistAttendanceDate("2026-10-28", today)).toBe("2026-10-28");
    expect(dentistAttendanceDate("2026-10-27", today)).toBe(today);
    expect(dentistAttendanceDate("2026-11-28", today)).toBe(today);
    expect(dentistAttendanceDate("2026-02-30", today)).toBe(today);
    expect(dentistAttendanceDate("ayer", today)).toBe(today);
  });
});
