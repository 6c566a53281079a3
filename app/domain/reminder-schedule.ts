import { addDays, clinicDate, clinicInstant, clinicTime } from "./clinic-time";
import { hoursPhrase } from "./policy-wording";

/**
 * When an appointment's WhatsApp reminder is due (ADR 018: the patient confirms the day before). Pure.
 *
 * - "24 hours before" is read on the clinic's wall clock: the same time the previous calendar day in
 *   America/Santiago (an appointment on Thursday at 10:00 is reminded on Wednesday at 10:00). Across a clock change
 *   that is 25 absolute hours before (first Sunday of April: the clock goes back) or 23 (first Sunday of
 *   September: it goes forward), which is what a patient reading "mañana a esta hora" expects. A reminder time that
 *   the September change skips moves forward by the gap, and a repeated April time is its first occurrence (as
 *   `clinicInstant` resolves them).
 * - Only scheduled or confirmed appointments that have not started get one.
 * - Late bookings: an appointment booked (or moved) less than 24 hours ahead is past its due time at once, so it is
 *   reminded at the next run, as long as it still starts at least `MIN_REMINDER_LEAD_HOURS` later. Closer than
 *   that, no reminder is sent: the patient has just booked (the booking notice already told them) or is about to
 *   leave for the clinic, when a "confirm or cancel" message helps nobody. The same bound covers a job that was
 *   down at the due time.
 * - A reminder belongs to an appointment and its start: a rescheduled appointment is reminded again for its new time.
 */

/** The reminder comes this many clinic calendar days before the appointment, at the same wall-clock time. */
export const REMINDER_DAYS_BEFORE = 1;

/** "24 horas": how replies state when the reminder comes (a wall-clock day, which they call 24 hours). */
export const REMINDER_NOTICE = hoursPhrase(REMINDER_DAYS_BEFORE * 24);

/** No reminder for an appointment starting sooner than this. */
export const MIN_REMINDER_LEAD_HOURS = 2;

/**
 * The widest gap between a reminder and its appointment (the April change makes the previous day 25 hours long),
 * plus an hour of margin: a database pre-filter may look this far ahead and leave the exact rule to `isReminderDue`.
 */
export const REMINDER_LOOKAHEAD_HOURS = 26;

const HOUR_MS = 3_600_000;

/** Statuses that are reminded. */
export const remindedStatuses = ["scheduled", "confirmed"] as const;

/** The instant the reminder of an appointment starting at `startsAt` is due. */
export function reminderDueAt(startsAt: Date): Date {
  const dayBefore = addDays(clinicDate(startsAt), -REMINDER_DAYS_BEFORE);
  // clinicTime has minute precision; keep any seconds the start carries.
  const belowMinute = startsAt.getTime() % 60_000;
  return new Date(clinicInstant(dayBefore, clinicTime(startsAt)).getTime() + belowMinute);
}

export interface ReminderCandidate {
  status: string;
  startsAt: Date;
}

/** Whether the reminder of this appointment should be queued at `now` (not whether it already was). */
export function isReminderDue(appointment: ReminderCandidate, now: Date): boolean {
  if (!(remindedStatuses as readonly string[]).includes(appointment.status)) return false;
  const start = appointment.startsAt.getTime();
  if (start - now.getTime() < MIN_REMINDER_LEAD_HOURS * HOUR_MS) return false;
  return now.getTime() >= reminderDueAt(appointment.startsAt).getTime();
}

/**
 * The outbox idempotency key of a reminder: the appointment and its start, so one start time gets one reminder and
 * a new start time (a reschedule) gets its own.
 */
export function reminderKey(appointmentId: string, startsAt: Date): string {
  return `reminder:${appointmentId}:${startsAt.toISOString()}`;
}
