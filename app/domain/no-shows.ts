import { addDays, clinicDate, startOfClinicDay } from "./clinic-time";

/**
 * No-shows (issue 23, ADR 042). Pure: every decision takes `now`.
 * - Staff mark 'No asistió' on an appointment that has started, is still scheduled or confirmed (a patient in the
 *   chair is 'En Progreso', a finished visit 'Completada', a cancelled one freed its slot) and started at most
 *   MARK_WINDOW_DAYS ago, so a year-old agenda is not rewritten.
 * - A mark can be undone ('Deshacer') on the clinic day it was made: a slip of the finger, not a second opinion.
 * - The count is over the last 12 months of the clinic's calendar; from `threshold` no-shows on, online booking asks
 *   a deposit (payments on) or a call to the clinic (payments off).
 */

export const NO_SHOW_WINDOW_MONTHS = 12;
export const MARK_WINDOW_DAYS = 30;
export const DEFAULT_NO_SHOW_THRESHOLD = 2;
export const MIN_NO_SHOW_THRESHOLD = 1;
export const MAX_NO_SHOW_THRESHOLD = 10;

export interface NoShowRule {
  /** Whether repeated no-shows change online booking at all. */
  enabled: boolean;
  /** From this many no-shows in the window on. */
  threshold: number;
}

export const DEFAULT_NO_SHOW_RULE: NoShowRule = { enabled: true, threshold: DEFAULT_NO_SHOW_THRESHOLD };

export type Decision = { allowed: true } | { allowed: false; reason: string };

export interface MarkableAppointment {
  status: string;
  startsAt: Date;
}

export function markNoShowDecision(appointment: MarkableAppointment, now: Date): Decision {
  if (appointment.status === "no_show")
    return { allowed: false, reason: "Esta cita ya está marcada como No asistió." };
  if (appointment.status !== "scheduled" && appointment.status !== "confirmed") {
    return {
      allowed: false,
      reason: "Solo una cita programada o confirmada se puede marcar como No asistió.",
    };
  }
  if (appointment.startsAt.getTime() > now.getTime()) {
    return { allowed: false, reason: "La cita aún no comienza: no se puede marcar como No asistió." };
  }
  if (clinicDate(appointment.startsAt) < addDays(clinicDate(now), -MARK_WINDOW_DAYS)) {
    return {
      allowed: false,
      reason: `Solo se pueden marcar inasistencias de los últimos ${MARK_WINDOW_DAYS} días.`,
    };
  }
  return { allowed: true };
}

export interface MarkedAppointment {
  status: string;
  noShowMarkedAt: Date | null;
}

export function undoNoShowDecision(appointment: MarkedAppointment, now: Date): Decision {
  if (appointment.status !== "no_show" || !appointment.noShowMarkedAt) {
    return { allowed: false, reason: "Esta cita no está marcada como No asistió." };
  }
  if (clinicDate(appointment.noShowMarkedAt) !== clinicDate(now)) {
    return {
      allowed: false,
      reason: "Una inasistencia solo se puede deshacer el mismo día en que se marcó.",
    };
  }
  return { allowed: true };
}

/** The status an undone mark goes back to: confirmed if the patient had confirmed, else scheduled. */
export function statusAfterUndo(confirmedAt: Date | null): "confirmed" | "scheduled" {
  return confirmedAt ? "confirmed" : "scheduled";
}

/** "YYYY-MM-DD" a year before a clinic date; 29 February goes back to 28 February. */
export function sameDayLastYear(date: string): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(year - 1, month, 0)).getUTCDate();
  return `${String(year - 1).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(day, lastDay)).padStart(2, "0")}`;
}

/**
 * The first instant of the counting window: the clinic day after the same date last year, at the clinic's midnight.
 * On 2026-11-27 a no-show of 2025-11-28 counts, one of 2025-11-27 no longer does.
 */
export function noShowWindowStart(now: Date): Date {
  return startOfClinicDay(addDays(sameDayLastYear(clinicDate(now)), 1));
}

/** Whether a patient with `count` no-shows in the window falls under the rule. */
export function reachesNoShowThreshold(count: number, rule: NoShowRule): boolean {
  return rule.enabled && count >= rule.threshold;
}

/** "1 inasistencia", "3 inasistencias". */
export function noShowCountLabel(count: number): string {
  return count === 1 ? "1 inasistencia" : `${count} inasistencias`;
}

/** Staff's line next to the patient: "2 inasistencias en 12 meses". */
export function noShowCountText(count: number): string {
  return `${noShowCountLabel(count)} en ${NO_SHOW_WINDOW_MONTHS} meses`;
}

/** Why Mis Citas asks a deposit (payments on). */
export function noShowDepositNotice(count: number): string {
  return `Registramos ${noShowCountLabel(count)} en los últimos ${NO_SHOW_WINDOW_MONTHS} meses: para agendar en línea se pide un abono, que se descuenta del valor de la atención.`;
}

/** Why Mis Citas refuses online booking (payments off), with the clinic's phone already formatted. */
export function noShowCallMessage(count: number, phoneLabel: string): string {
  return `Registramos ${noShowCountLabel(count)} en los últimos ${NO_SHOW_WINDOW_MONTHS} meses: para agendar una nueva cita, llámanos al ${phoneLabel} y te ayudamos a encontrar una hora.`;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The day the dentist's attendance view shows: `?fecha=` when it is a real date from MARK_WINDOW_DAYS ago up to
 * today (the days whose visits may still be marked), else today. A dentist who forgot yesterday's no-show marks it
 * the next morning.
 */
export function dentistAttendanceDate(asked: string | null, today: string): string {
  if (!asked || !ISO_DATE.test(asked)) return today;
  try {
    if (addDays(asked, 0) !== asked) return today;
  } catch {
    return today;
  }
  return asked <= today && asked >= addDays(today, -MARK_WINDOW_DAYS) ? asked : today;
}
