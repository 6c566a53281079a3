import { describe, expect, it } from "vitest";
import { clinicInstant } from "./clinic-time";
import { isReminderDue, MIN_REMINDER_LEAD_HOURS, reminderDueAt, reminderKey } from "./reminder-schedule";

const HOUR = 3_600_000;
const hoursBefore = (start: Date) => (start.getTime() - reminderDueAt(start).getTime()) / HOUR;
const at = (date: string, time: string) => clinicInstant(date, time);

describe("reminderDueAt: the same wall-clock time the previous day in Santiago", () => {
  it("is 24 hours before on ordinary days, in summer and in winter", () => {
    expect(reminderDueAt(at("2026-01-15", "09:30")).toISOString()).toBe(
      at("2026-01-14", "09:30").toISOString(),
    );
    expect(hoursBefore(at("2026-01-15", "09:30"))).toBe(24);
    expect(hoursBefore(at("2026-07-15", "16:00"))).toBe(24);
  });

  it("April 2026 (clocks back on Sunday 5 April, 03:00 UTC): 25 hours before for the Sunday", () => {
    // Sunday 5 April 10:00 (UTC-4) is 14:00Z; Saturday 10:00 was still UTC-3 (13:00Z).
    const sunday = at("2026-04-05", "10:00");
    expect(sunday.toISOString()).toBe("2026-04-05T14:00:00.000Z");
    expect(reminderDueAt(sunday).toISOString()).toBe("2026-04-04T13:00:00.000Z");
    expect(hoursBefore(sunday)).toBe(25);
    // Monday after: both days in winter time.
    expect(hoursBefore(at("2026-04-06", "10:00"))).toBe(24);
    // Saturday before: both in summer time.
    expect(hoursBefore(at("2026-04-04", "10:00"))).toBe(24);
    // A Sunday 23:30 appointment is reminded on Saturday's repeated 23:30: its first occurrence.
    expect(reminderDueAt(at("2026-04-05", "23:30")).toISOString()).toBe("2026-04-05T02:30:00.000Z");
  });

  it("September 2026 (clocks forward on Sunday 6 September, 04:00 UTC): 23 hours before for the Sunday", () => {
    const sunday = at("2026-09-06", "10:00");
    expect(sunday.toISOString()).toBe("2026-09-06T13:00:00.000Z");
    expect(reminderDueAt(sunday).toISOString()).toBe("2026-09-05T14:00:00.000Z");
    expect(hoursBefore(sunday)).toBe(23);
    expect(hoursBefore(at("2026-09-07", "10:00"))).toBe(24);
    expect(hoursBefore(at("2026-09-05", "10:00"))).toBe(24);
    // Monday 00:30: Sunday's 00:30 does not exist, so the reminder moves forward by the gap, to 01:30.
    expect(reminderDueAt(at("2026-09-07", "00:30")).toISOString()).toBe(
      at("2026-09-06", "01:30").toISOString(),
    );
  });

  it("keeps seconds", () => {
    const start = new Date(at("2026-01-15", "09:30").getTime() + 15_000);
    expect(reminderDueAt(start).getTime()).toBe(at("2026-01-14", "09:30").getTime() + 15_000);
  });
});

describe("isReminderDue", () => {
  const start = at("2026-09-06", "10:00");
  const due = reminderDueAt(start);

  it("is not due a moment before the day-before time, due from it on", () => {
    expect(isReminderDue({ status: "scheduled", startsAt: start }, new Date(due.getTime() - 1))).toBe(false);
    expect(isReminderDue({ status: "scheduled", startsAt: start }, due)).toBe(true);
    expect(isReminderDue({ status: "confirmed", startsAt: start }, new Date(due.getTime() + HOUR))).toBe(
      true,
    );
  });

  it("only for scheduled or confirmed appointments", () => {
    for (const status of ["cancelled", "in_progress", "completed", "no_show"]) {
      expect(isReminderDue({ status, startsAt: start }, due)).toBe(false);
    }
  });

  it("a late booking is reminded at once while it is still at least the minimum lead away, never later", () => {
    const soon = at("2026-01-15", "18:00");
    // Booked 20 hours ahead: due at once.
    expect(isReminderDue({ status: "scheduled", startsAt: soon }, new Date(soon.getTime() - 20 * HOUR))).toBe(
      true,
    );
    const limit = new Date(soon.getTime() - MIN_REMINDER_LEAD_HOURS * HOUR);
    expect(isReminderDue({ status: "scheduled", startsAt: soon }, limit)).toBe(true);
    expect(isReminderDue({ status: "scheduled", startsAt: soon }, new Date(limit.getTime() + 1))).toBe(false);
    expect(isReminderDue({ status: "scheduled", startsAt: soon }, soon)).toBe(false);
  });
});

it("the idempotency key is the appointment and its start", () => {
  const id = "6f1c1c1e-0000-4000-8000-000000000001";
  expect(reminderKey(id, at("2026-01-15", "09:30"))).toBe(`reminder:${id}:2026-01-15T12:30:00.000Z`);
  expect(reminderKey(id, at("2026-01-15", "10:30"))).not.toBe(reminderKey(id, at("2026-01-15", "09:30")));
});
