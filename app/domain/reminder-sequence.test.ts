import { describe, expect, it } from "vitest";
import { clinicInstant } from "./clinic-time";
import {
  defaultReminderSequence,
  isQuietHour,
  nominalStepTime,
  outOfQuietHours,
  planReminderSequence,
  reminderStepKey,
  type ReminderStep,
  type StepDecision,
} from "./reminder-sequence";

const HOUR = 3_600_000;
const at = (date: string, time: string) => clinicInstant(date, time);
const iso = (date: string, time: string) => at(date, time).toISOString();
const dueAt = (step: ReminderStep, start: Date) => outOfQuietHours(nominalStepTime(step, start), start, step);

describe("when each step is due, quiet hours included, across both 2026 clock changes", () => {
  // April: Sunday 5 April 2026 the clocks go back at midnight (UTC-3 → UTC-4).
  // September: Sunday 6 September 2026 they go forward at midnight (UTC-4 → UTC-3).
  it.each([
    // [step, appointment (clinic clock), expected time (clinic clock), absolute hours before]
    ["48h", ["2026-01-15", "09:30"], ["2026-01-13", "09:30"], 48],
    ["48h", ["2026-04-05", "10:00"], ["2026-04-03", "10:00"], 49],
    ["48h", ["2026-04-06", "10:00"], ["2026-04-04", "10:00"], 49],
    ["48h", ["2026-04-07", "10:00"], ["2026-04-05", "10:00"], 48],
    ["48h", ["2026-09-06", "10:00"], ["2026-09-04", "10:00"], 47],
    ["48h", ["2026-09-07", "10:00"], ["2026-09-05", "10:00"], 47],
    ["24h", ["2026-04-05", "10:00"], ["2026-04-04", "10:00"], 25],
    ["24h", ["2026-09-06", "10:00"], ["2026-09-05", "10:00"], 23],
    ["24h", ["2026-07-15", "16:00"], ["2026-07-14", "16:00"], 24],
    ["2h", ["2026-04-05", "12:00"], ["2026-04-05", "10:00"], 2],
    ["2h", ["2026-09-06", "12:00"], ["2026-09-06", "10:00"], 2],
    ["2h", ["2026-07-15", "10:00"], ["2026-07-15", "08:00"], 2],
    // Quiet hours: 07:00 moves forward to 08:00, still an hour before a 09:00 appointment.
    ["2h", ["2026-04-05", "09:00"], ["2026-04-05", "08:00"], 1],
    ["2h", ["2026-09-06", "09:00"], ["2026-09-06", "08:00"], 1],
    // 06:15 for an 08:15 appointment: 08:00 would leave 15 minutes (under the 30 of the 2 h step), so 21:00 the
    // evening before, across the April change (12 h 15 of wall clock, 12 h 15 absolute + the repeated hour)…
    ["2h", ["2026-04-05", "08:15"], ["2026-04-04", "21:00"], 12.25],
    // …and across the September change (the skipped hour makes it one hour shorter).
    ["2h", ["2026-09-06", "08:15"], ["2026-09-05", "21:00"], 10.25],
    // 21:30 for a 23:30 appointment: back to 21:00 (08:00 is after the appointment).
    ["2h", ["2026-03-10", "23:30"], ["2026-03-10", "21:00"], 2.5],
    // 24 h before a 07:30 appointment is 07:30: forward to 08:00 (nearer than 21:00 two evenings before).
    ["24h", ["2026-09-07", "07:30"], ["2026-09-06", "08:00"], 23.5],
    // 24 h before Sunday 5 April 23:30 is Saturday's 23:30 (summer time): back to Saturday's 21:00.
    ["24h", ["2026-04-05", "23:30"], ["2026-04-04", "21:00"], 27.5],
    // 48 h before a 02:00 appointment: 02:00 is nearer 21:00 (5 h) than 08:00 (6 h).
    ["48h", ["2026-05-20", "02:00"], ["2026-05-17", "21:00"], 53],
  ] as const)("%s before %j is at %j (%s h before)", (step, [day, time], [dueDay, dueTime], hours) => {
    const start = at(day, time);
    const due = dueAt(step, start)!;
    expect(due.toISOString()).toBe(iso(dueDay, dueTime));
    expect((start.getTime() - due.getTime()) / HOUR).toBe(hours);
    expect(isQuietHour(due)).toBe(false);
  });

  it("quiet hours are after 21:00 and before 08:00; both edges are allowed", () => {
    expect(isQuietHour(at("2026-09-06", "08:00"))).toBe(false);
    expect(isQuietHour(at("2026-09-06", "07:59"))).toBe(true);
    expect(isQuietHour(at("2026-04-04", "21:00"))).toBe(false);
    expect(isQuietHour(new Date(at("2026-04-04", "21:00").getTime() + 1000))).toBe(true);
    expect(isQuietHour(at("2026-04-05", "00:30"))).toBe(true);
    // The repeated hour of the April night is quiet both times.
    expect(isQuietHour(new Date("2026-04-05T03:30:00Z"))).toBe(true);
    expect(isQuietHour(new Date("2026-04-05T04:30:00Z"))).toBe(true);
  });

  it("a step with no edge left before the appointment has no time", () => {
    // The 2 h step of an appointment at 00:10 (never in practice) would fall at 22:10: back to 21:00 still works…
    expect(dueAt("2h", at("2026-03-11", "00:10"))!.toISOString()).toBe(iso("2026-03-10", "21:00"));
    // …but a time in quiet hours whose both edges are too close cannot be moved.
    expect(outOfQuietHours(at("2026-03-10", "21:10"), at("2026-03-10", "21:20"), "2h")).toBeNull();
  });
});

const summarize = (plan: StepDecision[]) =>
  plan.map((decision) =>
    decision.action === "skip"
      ? `${decision.step}:skip:${decision.reason}`
      : `${decision.step}:${decision.action}`,
  );

describe("planReminderSequence", () => {
  const start = at("2026-09-08", "10:00");
  const scheduled = { status: "scheduled", startsAt: start };
  const confirmed = { status: "confirmed", startsAt: start };

  // The plan is for steps not handled yet (the job only asks about those): a step already sent is not asked again.
  it("waits for each step and sends it from its time on", () => {
    expect(
      summarize(planReminderSequence(defaultReminderSequence, scheduled, at("2026-09-06", "09:59"))),
    ).toEqual(["48h:wait", "24h:wait", "2h:wait"]);
    expect(
      summarize(planReminderSequence(defaultReminderSequence, scheduled, at("2026-09-06", "10:00"))),
    ).toEqual(["48h:send", "24h:wait", "2h:wait"]);
    expect(
      summarize(planReminderSequence(defaultReminderSequence, scheduled, at("2026-09-07", "10:00"))),
    ).toEqual(["48h:skip:superseded", "24h:send", "2h:wait"]);
    expect(
      summarize(planReminderSequence(defaultReminderSequence, scheduled, at("2026-09-08", "08:00"))),
    ).toEqual(["48h:skip:superseded", "24h:skip:superseded", "2h:send"]);
  });

  it("only the switched-on steps", () => {
    const only2h = { "48h": false, "24h": false, "2h": true };
    expect(summarize(planReminderSequence(only2h, scheduled, at("2026-09-08", "08:00")))).toEqual([
      "2h:send",
    ]);
    expect(planReminderSequence({ "48h": false, "24h": false, "2h": false }, scheduled, start)).toEqual([]);
  });

  it("a confirmed appointment skips the 24 h confirmation request and keeps the 48 h and 2 h messages", () => {
    expect(
      summarize(planReminderSequence(defaultReminderSequence, confirmed, at("2026-09-07", "10:00"))),
    ).toEqual(["48h:send", "24h:skip:confirmed", "2h:wait"]);
    expect(
      summarize(planReminderSequence(defaultReminderSequence, confirmed, at("2026-09-08", "08:00"))),
    ).toEqual(["48h:skip:superseded", "24h:skip:confirmed", "2h:send"]);
  });

  it("a cancelled (or past) appointment has no steps", () => {
    for (const status of ["cancelled", "completed", "no_show"]) {
      expect(planReminderSequence(defaultReminderSequence, { status, startsAt: start }, start)).toEqual([]);
    }
  });

  it("late bookings: a passed step is skipped when a later one comes within 6 hours", () => {
    // Booked 3 hours ahead: only the 2 h message, an hour later.
    const threeAhead = new Date(start.getTime() - 3 * HOUR);
    expect(summarize(planReminderSequence(defaultReminderSequence, scheduled, threeAhead))).toEqual([
      "48h:skip:superseded",
      "24h:skip:superseded",
      "2h:wait",
    ]);
    // Booked 40 hours ahead: the 48 h message now, the 24 h request 16 hours later.
    expect(
      summarize(
        planReminderSequence(defaultReminderSequence, scheduled, new Date(start.getTime() - 40 * HOUR)),
      ),
    ).toEqual(["48h:send", "24h:wait", "2h:wait"]);
    // Booked 20 hours ahead: the 24 h request now (the 48 h one is covered by it), the 2 h message on the day.
    const twentyAhead = new Date(start.getTime() - 20 * HOUR);
    expect(summarize(planReminderSequence(defaultReminderSequence, scheduled, twentyAhead))).toEqual([
      "48h:skip:superseded",
      "24h:send",
      "2h:wait",
    ]);
    // Without the 2 h step, a booking 3 hours ahead still gets the confirmation request (at 07:00, quiet: at 08:00).
    const no2h = { "48h": true, "24h": true, "2h": false };
    expect(summarize(planReminderSequence(no2h, scheduled, threeAhead))).toEqual([
      "48h:skip:superseded",
      "24h:wait",
    ]);
    expect(summarize(planReminderSequence(no2h, scheduled, at("2026-09-08", "08:00")))).toEqual([
      "48h:skip:superseded",
      "24h:send",
    ]);
    // A confirmed appointment's 24 h step covers nothing: booked 20 h ahead and confirmed, the 48 h one goes.
    expect(summarize(planReminderSequence(defaultReminderSequence, confirmed, twentyAhead))).toEqual([
      "48h:send",
      "24h:skip:confirmed",
      "2h:wait",
    ]);
  });

  it("too late: under 2 hours for 48 h and 24 h, under 30 minutes for the 2 h message", () => {
    const only24 = { "48h": false, "24h": true, "2h": false };
    expect(
      summarize(planReminderSequence(only24, scheduled, new Date(start.getTime() - 2 * HOUR + 1))),
    ).toEqual(["24h:skip:too_late"]);
    expect(
      summarize(planReminderSequence(defaultReminderSequence, scheduled, new Date(start.getTime() - HOUR))),
    ).toEqual(["48h:skip:too_late", "24h:skip:too_late", "2h:send"]);
    expect(
      summarize(
        planReminderSequence(defaultReminderSequence, scheduled, new Date(start.getTime() - 20 * 60_000)),
      ),
    ).toEqual(["48h:skip:too_late", "24h:skip:too_late", "2h:skip:too_late"]);
  });

  it("a passed step found in quiet hours waits for 08:00, except a few minutes after its own time", () => {
    const only24 = { "48h": false, "24h": true, "2h": false };
    // Booked at 22:00 for 10:00 the next morning: the 24 h request goes at 08:00, not at night.
    const night = at("2026-09-07", "22:00");
    const [waiting] = planReminderSequence(only24, scheduled, night);
    expect(waiting).toEqual({ step: "24h", action: "wait", dueAt: at("2026-09-08", "08:00") });
    expect(summarize(planReminderSequence(only24, scheduled, at("2026-09-08", "08:00")))).toEqual([
      "24h:send",
    ]);
    // The 2 h message of an 08:15 appointment is due at 21:00: a run at 21:05 still sends it, one at 21:20 waits
    // until 08:00, when it is too late (15 minutes before) and is skipped.
    const early = { status: "scheduled", startsAt: at("2026-09-08", "08:15") };
    const only2h = { "48h": false, "24h": false, "2h": true };
    expect(summarize(planReminderSequence(only2h, early, at("2026-09-07", "21:05")))).toEqual(["2h:send"]);
    expect(summarize(planReminderSequence(only2h, early, at("2026-09-07", "21:20")))).toEqual(["2h:wait"]);
    expect(summarize(planReminderSequence(only2h, early, at("2026-09-08", "08:00")))).toEqual([
      "2h:skip:too_late",
    ]);
  });

  it("keys: one per appointment, start and step; the 24 h step keeps ADR 018's key", () => {
    const id = "0b3f6c1e-0000-4000-8000-000000000000";
    expect(reminderStepKey(id, start, "24h")).toBe(`reminder:${id}:${start.toISOString()}`);
    expect(reminderStepKey(id, start, "48h")).toBe(`reminder:${id}:${start.toISOString()}:48h`);
    expect(reminderStepKey(id, start, "2h")).toBe(`reminder:${id}:${start.toISOString()}:2h`);
  });
});
