import { describe, expect, it } from "vitest";
import { addDays, clinicDate, clinicDayBounds, clinicInstant, isoWeekday, minutesOfDay } from "./clinic-time";
import {
  demoInProgressVisit,
  demoSoonVisit,
  demoStartedVisit,
  insideClinicHours,
  SOON_VISIT_MIN_AHEAD_HOURS,
  STARTED_VISIT_MINUTES_AGO,
} from "./demo-schedule";
import { defaultReminderSequence, isQuietHour, planReminderSequence, QUIET_UNTIL } from "./reminder-sequence";

const hours = { opens: "09:00", closes: "18:00" };
const at = (date: string, time: string) => clinicInstant(date, time);
const instantOf = (visit: { date: string; time: string }) => clinicInstant(visit.date, visit.time).getTime();

/**
 * Every 10 minutes over the weeks of the April and September clock changes (Chile, 2026-04-05 and 2026-09-06) and a
 * plain November week.
 */
function* nows() {
  for (const start of ["2026-04-01T00:00:00Z", "2026-09-02T00:00:00Z", "2026-11-23T00:00:00Z"]) {
    for (let minutes = 0; minutes < 8 * 24 * 60; minutes += 10) {
      yield new Date(Date.parse(start) + minutes * 60_000);
    }
  }
}

describe("the demo's visits stay inside the clinic's hours", () => {
  it("at any time of any day (in progress 30 min, started 30 min, soon 45 min)", () => {
    const problems: string[] = [];
    for (const now of nows()) {
      const when = now.toISOString();
      const inProgress = demoInProgressVisit(now, 30, hours);
      const started = demoStartedVisit(now, 30, hours, { ...inProgress, durationMinutes: 30 });
      const soon = demoSoonVisit(now, 45, hours);
      for (const [name, visit, duration] of [
        ["in progress", inProgress, 30],
        ["started", started, 30],
        ["soon", soon, 45],
      ] as const) {
        if (!insideClinicHours(visit.time, duration, hours))
          problems.push(`${when}: ${name} at ${visit.time}`);
      }
      // The no-show visit has started, on a clinic weekday, and never overlaps the visit in progress.
      if (instantOf(started) > now.getTime() - STARTED_VISIT_MINUTES_AGO * 60_000)
        problems.push(`${when}: started visit not started`);
      if (isoWeekday(started.date) > 5) problems.push(`${when}: started visit on a weekend`);
      if (started.date === inProgress.date && minutesOfDay(started.time) + 30 > minutesOfDay(inProgress.time))
        problems.push(`${when}: started visit overlaps the one in progress`);
      // The reminder's appointment: far enough for its 2 h message not to cover the 24 h request, under 24 hours
      // (25 when the night before it is the April change's, 25 hours long).
      const ahead = (instantOf(soon) - now.getTime()) / 3_600_000;
      const { start, end } = clinicDayBounds(addDays(soon.date, -1));
      const most = Math.max(24, (end.getTime() - start.getTime()) / 3_600_000);
      if (ahead < SOON_VISIT_MIN_AHEAD_HOURS || ahead > most)
        problems.push(`${when}: soon visit ${ahead} h ahead`);
    }
    expect(problems).toEqual([]);
  });
});

describe("the demo's reminder", () => {
  it("is the 24 h request, sent by the job's first run after the start, or at 08:00 when started in quiet hours", () => {
    const problems: string[] = [];
    for (const now of nows()) {
      const soon = demoSoonVisit(now, 45, hours);
      const appointment = { status: "scheduled", startsAt: clinicInstant(soon.date, soon.time) };
      // The job's first run comes a few seconds after the start; in quiet hours, the run at the 08:00 that ends them.
      const firstRun = new Date(now.getTime() + 30_000);
      const date = clinicDate(firstRun);
      const run = isQuietHour(firstRun)
        ? clinicInstant(
            firstRun.getTime() < clinicInstant(date, QUIET_UNTIL).getTime() ? date : addDays(date, 1),
            QUIET_UNTIL,
          )
        : firstRun;
      const steps = planReminderSequence(defaultReminderSequence, appointment, run);
      const request = steps.find((step) => step.step === "24h");
      if (request?.action !== "send")
        problems.push(`${now.toISOString()} (run ${run.toISOString()}): ${JSON.stringify(steps)}`);
    }
    expect(problems).toEqual([]);
  });
});

describe("demoInProgressVisit", () => {
  it("is now during hours, opening before them and the last start after them", () => {
    expect(demoInProgressVisit(at("2026-11-25", "11:07"), 30, hours)).toEqual({
      date: "2026-11-25",
      time: "11:05",
    });
    expect(demoInProgressVisit(at("2026-11-25", "07:40"), 30, hours)).toEqual({
      date: "2026-11-25",
      time: "09:00",
    });
    expect(demoInProgressVisit(at("2026-11-25", "22:10"), 30, hours)).toEqual({
      date: "2026-11-25",
      time: "17:30",
    });
  });
});

describe("demoStartedVisit", () => {
  it("is today 35 minutes ago during the day, before the visit in progress in the evening", () => {
    expect(demoStartedVisit(at("2026-11-25", "11:07"), 30, hours)).toEqual({
      date: "2026-11-25",
      time: "10:30",
    });
    const evening = at("2026-11-25", "21:00");
    const busy = { ...demoInProgressVisit(evening, 30, hours), durationMinutes: 30 };
    expect(demoStartedVisit(evening, 30, hours, busy)).toEqual({ date: "2026-11-25", time: "16:55" });
  });

  it("goes to the previous clinic day's last start before 9:35 and on weekends", () => {
    // Wednesday early morning → Tuesday; Monday morning → Friday; Sunday → Friday.
    expect(demoStartedVisit(at("2026-11-25", "09:30"), 30, hours)).toEqual({
      date: "2026-11-24",
      time: "17:30",
    });
    expect(demoStartedVisit(at("2026-11-23", "08:00"), 30, hours)).toEqual({
      date: "2026-11-20",
      time: "17:30",
    });
    expect(demoStartedVisit(at("2026-11-22", "12:00"), 30, hours)).toEqual({
      date: "2026-11-20",
      time: "17:30",
    });
  });
});

describe("demoSoonVisit", () => {
  it("is 20 hours ahead when that falls inside hours, else the last start of the day before closing", () => {
    // 14:00 + 20 h = 10:00 next day.
    expect(demoSoonVisit(at("2026-11-25", "14:00"), 45, hours)).toEqual({
      date: "2026-11-26",
      time: "10:00",
    });
    // 00:30 + 20 h = 20:30: the old demo's cleaning; now 17:15 the same day.
    expect(demoSoonVisit(at("2026-11-25", "00:30"), 45, hours)).toEqual({
      date: "2026-11-25",
      time: "17:15",
    });
    // 07:00 + 20 h = 03:00 next day: the evening before, 17:15 today (10¼ hours ahead).
    expect(demoSoonVisit(at("2026-11-25", "07:00"), 45, hours)).toEqual({
      date: "2026-11-25",
      time: "17:15",
    });
    // 10:00 + 20 h = 06:00 next day: 17:15 today is too close (its 2 h message, 5¼ hours away, would cover the
    // 24 h request); the opening of the next day instead, 23 hours ahead.
    expect(demoSoonVisit(at("2026-11-25", "10:00"), 45, hours)).toEqual({
      date: "2026-11-26",
      time: "09:00",
    });
  });
});
