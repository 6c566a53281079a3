import {
  addDays,
  clinicDate,
  clinicInstant,
  clinicTime,
  isoWeekday,
  minutesOfDay,
  timeFromMinutes,
} from "./clinic-time";
import { STEP_COVER_HOURS } from "./reminder-sequence";

/**
 * Where the demo's appointments that depend on "now" go (issue 24, item 11): every one inside the clinic's hours
 * (Mon–Fri 9:00–18:00, `config/clinic.ts`), so a patient or a dentist opening the demo never meets a visit at 8:00 or
 * 20:30. Pure: every function takes `now` and the hours.
 */

export interface ClinicHours {
  /** "09:00" */
  opens: string;
  /** "18:00" */
  closes: string;
}

/** A clinic calendar date and wall-clock start time. */
export interface DemoVisit {
  date: string;
  time: string;
}

/** The no-show demo's visit started at least this long before the demo starts: it is over, nobody came. */
export const STARTED_VISIT_MINUTES_AGO = 35;
/** Gap between the no-show demo's visit and the visit in progress, on the same dentist's day. */
const GAP_MINUTES = 5;

const floorTo = (minutes: number, step: number) => Math.floor(minutes / step) * step;
const nowMinutes = (now: Date) => minutesOfDay(clinicTime(now));

/** Monday to Friday: the days the clinic opens (Saturday is on request). */
export function isClinicWeekday(date: string): boolean {
  return isoWeekday(date) <= 5;
}

/** Whether a visit of `durationMinutes` starting at `time` begins at opening or later and ends by closing. */
export function insideClinicHours(time: string, durationMinutes: number, hours: ClinicHours): boolean {
  const start = minutesOfDay(time);
  return start >= minutesOfDay(hours.opens) && start + durationMinutes <= minutesOfDay(hours.closes);
}

/**
 * The demo patient's visit 'En progreso': today, at the last five minutes not after now (the patient is in the
 * chair), kept inside hours: at opening before the clinic opens, at the last start that ends by closing after that.
 */
export function demoInProgressVisit(now: Date, durationMinutes: number, hours: ClinicHours): DemoVisit {
  const start = Math.min(
    Math.max(floorTo(nowMinutes(now), 5), minutesOfDay(hours.opens)),
    minutesOfDay(hours.closes) - durationMinutes,
  );
  return { date: clinicDate(now), time: timeFromMinutes(start) };
}

/**
 * The no-show demo's visit (ADR 042): another patient's visit that has started (at least
 * `STARTED_VISIT_MINUTES_AGO` before now) and is still 'Programada', so the dentist can mark 'No asistió'. Today
 * when today is a clinic day and such a time exists inside hours, ending before the dentist's visit in progress
 * (`busy`); otherwise (before 9:35, a weekend) at the last start of the previous clinic day, which the dentist
 * reaches with 'Día anterior' (marks are allowed for 30 days).
 */
export function demoStartedVisit(
  now: Date,
  durationMinutes: number,
  hours: ClinicHours,
  busy?: DemoVisit & { durationMinutes: number },
): DemoVisit {
  const today = clinicDate(now);
  const opens = minutesOfDay(hours.opens);
  const lastStart = minutesOfDay(hours.closes) - durationMinutes;
  if (isClinicWeekday(today)) {
    let start = Math.min(floorTo(nowMinutes(now) - STARTED_VISIT_MINUTES_AGO, 5), lastStart);
    if (busy && busy.date === today) {
      const busyStart = minutesOfDay(busy.time);
      if (start < busyStart + busy.durationMinutes && busyStart < start + durationMinutes) {
        start = busyStart - durationMinutes - GAP_MINUTES;
      }
    }
    if (start >= opens) return { date: today, time: timeFromMinutes(start) };
  }
  let day = addDays(today, -1);
  while (!isClinicWeekday(day)) day = addDays(day, -1);
  return { date: day, time: timeFromMinutes(floorTo(lastStart, 5)) };
}

/**
 * How close the demo's reminder appointment may be: its 2 h message must come more than `STEP_COVER_HOURS` after
 * the reminder job's first run, or it would cover (supersede, ADR 039) the 24 h request the demo shows; a quarter of
 * an hour of margin for that run.
 */
export const SOON_VISIT_MIN_AHEAD_HOURS = 2 + STEP_COVER_HOURS + 0.25;

/**
 * The demo's appointment whose WhatsApp reminder (the 24 h request, with its 'Confirmar', 'Cancelar' and 'Necesito
 * hablar con alguien' links) the reminder job queues at its first run after a fresh demo start (ADR 018, ADR 039):
 * about `aheadHours` after now on a quarter hour, kept inside hours and between `SOON_VISIT_MIN_AHEAD_HOURS` and 24
 * hours ahead (25 across the April change, whose night is an hour longer), so the request is due at once, no 2 h
 * message comes close enough to cover it, and cancelling carries the late fee. After closing it moves back to the
 * day's last start that ends by closing; before opening, to the previous day's last start, or (when that is too
 * close) to the opening of the day. Started in quiet hours, the request waits for 08:00 as every step does, and goes
 * then. It may fall on a Saturday or Sunday: nothing inside hours lies within 24 hours then.
 */
export function demoSoonVisit(
  now: Date,
  durationMinutes: number,
  hours: ClinicHours,
  aheadHours = 20,
): DemoVisit {
  const candidate = new Date(Math.ceil((now.getTime() + aheadHours * 3_600_000) / 900_000) * 900_000);
  const date = clinicDate(candidate);
  const time = clinicTime(candidate);
  if (insideClinicHours(time, durationMinutes, hours)) return { date, time };
  const last = timeFromMinutes(floorTo(minutesOfDay(hours.closes) - durationMinutes, 15));
  if (minutesOfDay(time) >= minutesOfDay(hours.opens)) return { date, time: last };
  const dayBefore = { date: addDays(date, -1), time: last };
  const ahead = clinicInstant(dayBefore.date, dayBefore.time).getTime() - now.getTime();
  return ahead >= SOON_VISIT_MIN_AHEAD_HOURS * 3_600_000 ? dayBefore : { date, time: hours.opens };
}
