import { describe, expect, it } from "vitest";
import {
  answerDueAt,
  calendarDaysBetween,
  clockLabel,
  dueDate,
  extendedDueAt,
  extensionVerdict,
  readClock,
} from "./privacy-clock";

// Santiago: UTC-3 in summer (September to April), UTC-4 in winter.
describe("answerDueAt: 30 calendar days after the day of receipt, until midnight (Santiago)", () => {
  it.each([
    // received (UTC instant)        last day       due instant (UTC)
    ["2026-12-01T12:00:00Z", "2026-12-31", "2027-01-01T03:00:00.000Z"],
    // 23:30 on 1 December in Santiago is 02:30 UTC on the 2nd: still received on the 1st
    ["2026-12-02T02:30:00Z", "2026-12-31", "2027-01-01T03:00:00.000Z"],
    // 00:10 on 2 December in Santiago: received on the 2nd
    ["2026-12-02T03:10:00Z", "2027-01-01", "2027-01-02T03:00:00.000Z"],
    // February (28 days): a term crosses month ends by calendar days
    ["2027-02-01T15:00:00Z", "2027-03-03", "2027-03-04T03:00:00.000Z"],
    // Across the April change (clocks back at midnight 4 April 2027): still 30 days, due at winter midnight
    ["2027-03-20T15:00:00Z", "2027-04-19", "2027-04-20T04:00:00.000Z"],
    // Across the September change (clocks forward 5 September 2027, midnight does not exist): due at 01:00 summer
    ["2027-08-10T15:00:00Z", "2027-09-09", "2027-09-10T03:00:00.000Z"],
    ["2027-08-06T15:00:00Z", "2027-09-05", "2027-09-06T03:00:00.000Z"],
  ])("received %s → last day %s (due %s)", (received, last, due) => {
    const dueAt = answerDueAt(new Date(received));
    expect(dueAt.toISOString()).toBe(due);
    expect(dueDate(dueAt)).toBe(last);
  });

  it("a term whose last day is the September change ends at that day's end", () => {
    // Received 6 August 2027 → last day 5 September 2027 (its 00:00 does not exist; the day has 23 hours).
    const dueAt = answerDueAt(new Date("2027-08-06T15:00:00Z"));
    expect(dueDate(dueAt)).toBe("2027-09-05");
  });
});

describe("the one extension", () => {
  it.each([
    ["2026-12-31", "2027-01-30"],
    ["2027-03-03", "2027-04-02"],
    ["2027-04-19", "2027-05-19"],
  ])("a term ending on %s ends on %s once extended", (last, extendedLast) => {
    const dueAt = answerDueAt(new Date(`${last}T15:00:00Z`));
    // answerDueAt(x) ends 30 days after x: rebuild a due instant whose last day is `last`.
    const original = new Date(dueAt.getTime() - 30 * 86_400_000);
    expect(dueDate(original) <= last).toBe(true);
    const exact = answerDueAt(new Date(new Date(`${last}T15:00:00Z`).getTime() - 30 * 86_400_000));
    expect(dueDate(exact)).toBe(last);
    expect(dueDate(extendedDueAt(exact))).toBe(extendedLast);
  });

  it.each([
    { extendedAt: null, now: "2026-12-31T20:00:00Z", verdict: "allowed" },
    { extendedAt: "2026-12-10T10:00:00Z", now: "2026-12-20T20:00:00Z", verdict: "already_extended" },
    { extendedAt: null, now: "2027-01-01T03:00:00Z", verdict: "term_over" },
  ])("extension at $now (extended: $extendedAt) → $verdict", ({ extendedAt, now, verdict }) => {
    const dueAt = new Date("2027-01-01T03:00:00Z");
    expect(
      extensionVerdict({ dueAt, extendedAt: extendedAt ? new Date(extendedAt) : null }, new Date(now)),
    ).toBe(verdict);
  });
});

describe("readClock: days left, due soon, overdue", () => {
  const dueAt = new Date("2027-01-01T03:00:00Z"); // last day 31 December 2026
  it.each([
    ["2026-12-01T15:00:00Z", 30, false, false, "30 días"],
    ["2026-12-25T15:00:00Z", 6, false, true, "6 días"],
    ["2026-12-24T15:00:00Z", 7, false, true, "7 días"],
    ["2026-12-23T15:00:00Z", 8, false, false, "8 días"],
    ["2026-12-30T15:00:00Z", 1, false, true, "1 día"],
    // 23:59 Santiago on the last day: still in time
    ["2027-01-01T02:59:00Z", 0, false, true, "Vence hoy"],
    // midnight: overdue
    ["2027-01-01T03:00:00Z", -1, true, false, "Vencida (hace 1 día)"],
    ["2027-01-05T15:00:00Z", -5, true, false, "Vencida (hace 5 días)"],
  ])("at %s: %i days left, overdue %s, due soon %s (%s)", (now, daysLeft, overdue, dueSoon, label) => {
    const reading = readClock(dueAt, new Date(now));
    expect(reading).toEqual({ dueDate: "2026-12-31", daysLeft, overdue, dueSoon });
    expect(clockLabel(reading)).toBe(label);
  });

  it("counts calendar days, not 24-hour periods, across a clock change", () => {
    expect(calendarDaysBetween("2027-04-03", "2027-04-05")).toBe(2);
    expect(calendarDaysBetween("2027-09-04", "2027-09-06")).toBe(2);
    expect(calendarDaysBetween("2027-01-05", "2027-01-01")).toBe(-4);
  });

  it("the digest's window is its own number of days", () => {
    expect(readClock(dueAt, new Date("2026-12-26T15:00:00Z"), 5).dueSoon).toBe(true);
    expect(readClock(dueAt, new Date("2026-12-25T15:00:00Z"), 5).dueSoon).toBe(false);
  });
});
