import { addDays, clinicDate, clinicInstant, clinicTime, minutesOfDay } from "./clinic-time";
import { MIN_REMINDER_LEAD_HOURS, reminderDueAt, remindedStatuses } from "./reminder-schedule";

/**
 * The reminder sequence (issue 23, ADR 039): the steps the clinic can switch on or off, in the order they come, and
 * when each one is due for an appointment. Pure.
 *
 * - 48 h: the same wall-clock time two clinic days before (with the forms still to fill); 24 h: the same wall-clock
 *   time the day before (ADR 018's reading, with 'Confirmar', 'Cancelar' and 'Necesito hablar con alguien'); 2 h:
 *   two absolute hours before ("te esperamos").
 * - Quiet hours: nothing goes out after 21:00 or before 08:00 on the clinic's clock (21:00 and 08:00 themselves are
 *   allowed). A step whose time falls in between moves to the nearer edge (the evening's 21:00 or the morning's
 *   08:00) among those that still leave the step's minimum lead before the appointment: the 2 h message of a 09:00
 *   appointment goes at 08:00, that of an 08:15 appointment at 21:00 the evening before. Both edges are on the
 *   clock outside midnight, so the clock changes (which Chile makes at midnight) never remove them.
 * - A confirmed appointment skips the 24 h step (its purpose is the confirmation) and keeps the others.
 * - Late bookings (and a job that was down): a step whose time has passed is sent at the next run, unless a later
 *   step that will be sent comes within `STEP_COVER_HOURS` (it covers it: someone booking 3 hours ahead gets only the
 *   2 h message, not three at once) or the appointment is closer than the step's minimum lead. A due step found in
 *   quiet hours waits for 08:00 (then the same two rules apply), except within `QUIET_GRACE_MINUTES` of its time,
 *   so that a step moved to 21:00 is not pushed to the morning by a run a few seconds late.
 */

/** 48 hours before (with the forms still to fill), 24 hours before (Confirmar/Cancelar), 2 hours before ("te esperamos"). */
export const reminderSteps = ["48h", "24h", "2h"] as const;
export type ReminderStep = (typeof reminderSteps)[number];

/** Which steps the clinic sends. */
export type ReminderSequenceSettings = Record<ReminderStep, boolean>;

/** The default sequence: every step on. */
export const defaultReminderSequence: ReminderSequenceSettings = { "48h": true, "24h": true, "2h": true };

/** How the admin names each step. */
export const reminderStepLabels: Record<ReminderStep, { title: string; description: string }> = {
  "48h": {
    title: "48 horas antes",
    description: "Recuerda la cita dos días antes e incluye el enlace a los formularios pendientes.",
  },
  "24h": {
    title: "24 horas antes",
    description:
      "Pide confirmar la cita, con los enlaces Confirmar, Cancelar y «Necesito hablar con alguien». No se envía si la cita ya está confirmada.",
  },
  "2h": {
    title: "2 horas antes",
    description: "Mensaje «te esperamos» el mismo día, también para citas confirmadas.",
  },
};

/** Quiet hours on the clinic's clock: no message after this… */
export const QUIET_FROM = "21:00";
/** …nor before this. */
export const QUIET_UNTIL = "08:00";
/** A due step may still go out this long into quiet hours after its time (a run a little late). */
export const QUIET_GRACE_MINUTES = 10;
/** A passed step is not sent when a later step that will be sent comes within this many hours. */
export const STEP_COVER_HOURS = 6;

/** The 2 h message is not sent closer to the start than this (minutes). */
export const MIN_SAME_DAY_LEAD_MINUTES = 30;

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** How close to the start each step may still go out. */
export function minimumLeadMs(step: ReminderStep): number {
  return step === "2h" ? MIN_SAME_DAY_LEAD_MINUTES * MINUTE_MS : MIN_REMINDER_LEAD_HOURS * HOUR_MS;
}

/**
 * How far ahead a database pre-filter must look for appointments with a step coming: two clinic days (49 h across
 * the April change) plus the farthest a quiet-hours move goes back (11 h), plus an hour of margin.
 */
export const SEQUENCE_LOOKAHEAD_HOURS = 61;

/** The step's time before quiet hours: wall-clock days for 48 h and 24 h, absolute hours for 2 h. */
export function nominalStepTime(step: ReminderStep, startsAt: Date): Date {
  if (step === "24h") return reminderDueAt(startsAt);
  if (step === "2h") return new Date(startsAt.getTime() - 2 * HOUR_MS);
  const twoDaysBefore = addDays(clinicDate(startsAt), -2);
  return new Date(
    clinicInstant(twoDaysBefore, clinicTime(startsAt)).getTime() + (startsAt.getTime() % MINUTE_MS),
  );
}

/** Whether `instant` is in quiet hours (after 21:00, before 08:00 on the clinic's clock). */
export function isQuietHour(instant: Date): boolean {
  const minutes = minutesOfDay(clinicTime(instant));
  const belowMinute = instant.getTime() % MINUTE_MS;
  if (minutes < minutesOfDay(QUIET_UNTIL)) return true;
  const from = minutesOfDay(QUIET_FROM);
  return minutes > from || (minutes === from && belowMinute > 0);
}

/**
 * `instant` moved out of quiet hours for a step of an appointment starting at `startsAt`: unchanged outside them;
 * otherwise the nearer of the evening's 21:00 before it and the morning's 08:00 after it that still leaves the
 * step's minimum lead (the earlier one on a tie); null when neither does.
 */
export function outOfQuietHours(instant: Date, startsAt: Date, step: ReminderStep): Date | null {
  if (!isQuietHour(instant)) return instant;
  const date = clinicDate(instant);
  const evening = minutesOfDay(clinicTime(instant)) >= minutesOfDay(QUIET_FROM);
  const before = clinicInstant(evening ? date : addDays(date, -1), QUIET_FROM);
  const after = clinicInstant(evening ? addDays(date, 1) : date, QUIET_UNTIL);
  const lead = minimumLeadMs(step);
  const fits = (edge: Date) => startsAt.getTime() - edge.getTime() >= lead;
  const edges = [before, after]
    .filter(fits)
    .toSorted(
      (a, b) =>
        Math.abs(a.getTime() - instant.getTime()) - Math.abs(b.getTime() - instant.getTime()) ||
        a.getTime() - b.getTime(),
    );
  return edges[0] ?? null;
}

/** The 08:00 that ends the quiet hours `instant` is in. */
function endOfQuietHours(instant: Date): Date {
  const date = clinicDate(instant);
  const evening = minutesOfDay(clinicTime(instant)) >= minutesOfDay(QUIET_FROM);
  return clinicInstant(evening ? addDays(date, 1) : date, QUIET_UNTIL);
}

export type StepSkipReason = "confirmed" | "superseded" | "too_late" | "quiet_hours";

export type StepDecision =
  /** Not yet: comes at `dueAt`. */
  | { step: ReminderStep; action: "wait"; dueAt: Date }
  /** Queue it now. */
  | { step: ReminderStep; action: "send"; dueAt: Date }
  /** Never for this start: record it as skipped (final once `dueAt` has passed, or when there is no time). */
  | { step: ReminderStep; action: "skip"; dueAt: Date | null; reason: StepSkipReason };

export interface SequenceAppointment {
  status: string;
  startsAt: Date;
}

/**
 * What each switched-on step of an appointment's sequence should do at `now`: wait, be sent, or be skipped (and
 * why). An appointment that is not scheduled or confirmed (cancelled, done, no-show) has no steps: a cancellation
 * stops the sequence. Steps in the sequence's order.
 */
export function planReminderSequence(
  settings: ReminderSequenceSettings,
  appointment: SequenceAppointment,
  now: Date,
): StepDecision[] {
  if (!(remindedStatuses as readonly string[]).includes(appointment.status)) return [];
  const start = appointment.startsAt;
  const confirmed = appointment.status === "confirmed";
  const steps = reminderSteps
    .filter((step) => settings[step])
    .map((step) => ({ step, dueAt: outOfQuietHours(nominalStepTime(step, start), start, step) }));
  // The steps that will (or may still) be sent: those that have a time and are not skipped for confirmation.
  const sendable = (step: ReminderStep, dueAt: Date | null): dueAt is Date =>
    dueAt !== null && !(step === "24h" && confirmed);

  return steps.map(({ step, dueAt }, index): StepDecision => {
    if (dueAt === null) return { step, action: "skip", dueAt: null, reason: "quiet_hours" };
    if (now.getTime() < dueAt.getTime()) return { step, action: "wait", dueAt };
    if (step === "24h" && confirmed) return { step, action: "skip", dueAt, reason: "confirmed" };
    if (start.getTime() - now.getTime() < minimumLeadMs(step))
      return { step, action: "skip", dueAt, reason: "too_late" };
    const covered = steps
      .slice(index + 1)
      .some(
        (later) =>
          sendable(later.step, later.dueAt) &&
          later.dueAt.getTime() - now.getTime() < STEP_COVER_HOURS * HOUR_MS,
      );
    if (covered) return { step, action: "skip", dueAt, reason: "superseded" };
    if (isQuietHour(now) && now.getTime() - dueAt.getTime() > QUIET_GRACE_MINUTES * MINUTE_MS) {
      return { step, action: "wait", dueAt: endOfQuietHours(now) };
    }
    return { step, action: "send", dueAt };
  });
}

/**
 * The outbox idempotency key of one step of a reminder: the appointment, its start and the step, so one start gets
 * each step once and a new start (a reschedule) gets its own. The 24 h step keeps ADR 018's key.
 */
export function reminderStepKey(appointmentId: string, startsAt: Date, step: ReminderStep): string {
  const base = `reminder:${appointmentId}:${startsAt.toISOString()}`;
  return step === "24h" ? base : `${base}:${step}`;
}
