import type { AppointmentStatus } from "./appointment-status";
import { addDays } from "./clinic-time";
import { daysPhrase, hoursPhrase, noticePhrase, percentPhrase } from "./policy-wording";

/**
 * Appointment rules (DESIGN decisions 8 and 9). Pure: every decision takes `now`.
 * - Cancelling 24 h or more ahead is free; less than 24 h costs 50% of the treatment; past ones cannot be cancelled.
 * - Rescheduling follows the same 24-hour window (inside it the patient calls the clinic).
 * - Only scheduled appointments can be confirmed by the patient.
 * Hours are real elapsed hours between instants, so a clock change inside the window counts as it happened.
 */

export const FREE_CANCELLATION_HOURS = 24;
export const LATE_CANCELLATION_FEE_RATE = 0.5;
export const NO_SHOW_FEE_RATE = 1;
export const MIN_BOOKING_LEAD_MINUTES = 60;
export const BOOKING_HORIZON_DAYS = 90;
export const DEFAULT_DURATION_MINUTES = 60;

const HOUR_MS = 3_600_000;

/** "24 horas": the free-cancellation window as every text states it. */
export const FREE_CANCELLATION_WINDOW_TEXT = hoursPhrase(FREE_CANCELLATION_HOURS);
/** "50%": the late-cancellation fee as every text states it. */
export const LATE_CANCELLATION_FEE_TEXT = percentPhrase(LATE_CANCELLATION_FEE_RATE);
const FREE_WINDOW = FREE_CANCELLATION_WINDOW_TEXT;
const LATE_FEE = LATE_CANCELLATION_FEE_TEXT;

/**
 * The cancellation policy's wording, built from the constants above: every screen, message and reply that states
 * the policy takes its sentence from here.
 */
export const cancellationWording = {
  /** The cancel dialog's standing policy paragraph. */
  policy: `Política de la clínica: cancelar con ${FREE_WINDOW} o más de anticipación no tiene costo; con menos de ${FREE_WINDOW} se cobra el ${LATE_FEE} del valor del tratamiento. Las citas pasadas no se pueden cancelar.`,
  /** The booking dialog's note under the summary. */
  bookingNote: `Puedes cancelar sin costo con ${FREE_WINDOW} o más de anticipación; con menos de ${FREE_WINDOW} se cobra el ${LATE_FEE} del tratamiento.`,
  /** The reminder template's last sentence. */
  lateFeeNotice: `Cancelar con menos de ${FREE_WINDOW} de anticipación tiene un cargo del ${LATE_FEE} del tratamiento.`,
  /** The agent's booking answer. */
  freeNotice: `Para cancelar sin costo, avísanos con ${FREE_WINDOW} de anticipación.`,
  /** The advisor's appointments answer. */
  freeNoticeAtLeast: `Para cancelar sin costo, avísanos con al menos ${FREE_WINDOW} de anticipación.`,
  /** The cancel preview when the appointment is outside the window. */
  free: `Cancelar con ${FREE_WINDOW} o más de anticipación no tiene costo.`,
  /** Why a live appointment cannot be moved online. */
  rescheduleTooLate: `Faltan menos de ${FREE_WINDOW}: para reprogramar, llama a la clínica.`,
} as const;

/** The cancel preview inside the window, with the fee already formatted ("$95.000"). */
export function lateCancellationWarning(feeLabel: string): string {
  return `Faltan menos de ${FREE_WINDOW} para tu cita: según nuestra política, cancelar ahora tiene un cargo del ${LATE_FEE} del tratamiento (${feeLabel}).`;
}

/** The answer after a late cancellation through a reminder link, with the fee already formatted. */
export function lateCancellationRecorded(feeLabel: string): string {
  return `Tu cita fue cancelada. Según nuestra política, se registró un cargo de ${feeLabel} (${LATE_FEE} del tratamiento).`;
}

/** Who may move an appointment from one status to another. */
const transitions: Record<AppointmentStatus, readonly AppointmentStatus[]> = {
  scheduled: ["confirmed", "cancelled", "in_progress", "no_show"],
  confirmed: ["cancelled", "in_progress", "no_show"],
  in_progress: ["completed"],
  completed: [],
  cancelled: [],
  no_show: [],
  // A booking waiting for its deposit (ADR 036): paid, released, or cancelled by the patient.
  pending_payment: ["confirmed", "payment_failed", "cancelled"],
  // Released: paid late while its slot is still free books it again; 'Reintentar pago' holds it again.
  payment_failed: ["confirmed", "pending_payment"],
};

export function canTransition(from: string, to: AppointmentStatus): boolean {
  return (transitions[from as AppointmentStatus] ?? []).includes(to);
}

export interface PolicyAppointment {
  status: string;
  startsAt: Date;
  /** CLP price of the treatment, if known. */
  treatmentPrice: number | null;
}

export type Decision<T = object> = ({ allowed: true } & T) | { allowed: false; reason: string };

/** The duration shown and booked: the appointment's own, else the treatment's, else 60 minutes. */
export function effectiveDuration(
  own: number | null | undefined,
  treatment: number | null | undefined,
): number {
  return own ?? treatment ?? DEFAULT_DURATION_MINUTES;
}

export function hoursUntil(startsAt: Date, now: Date): number {
  return (startsAt.getTime() - now.getTime()) / HOUR_MS;
}

export function cancellationDecision(
  appointment: PolicyAppointment,
  now: Date,
): Decision<{ fee: number; late: boolean }> {
  // A booking still waiting for its deposit was never confirmed: letting it go costs nothing (ADR 036).
  if (appointment.status === "pending_payment") return { allowed: true, late: false, fee: 0 };
  if (appointment.status !== "scheduled" && appointment.status !== "confirmed") {
    return { allowed: false, reason: "Esta cita ya no se puede cancelar." };
  }
  if (appointment.startsAt.getTime() <= now.getTime()) {
    return { allowed: false, reason: "Las citas pasadas no se pueden cancelar." };
  }
  const late = hoursUntil(appointment.startsAt, now) < FREE_CANCELLATION_HOURS;
  const fee = late ? Math.round((appointment.treatmentPrice ?? 0) * LATE_CANCELLATION_FEE_RATE) : 0;
  return { allowed: true, late, fee };
}

export function rescheduleDecision(appointment: PolicyAppointment, now: Date): Decision {
  if (appointment.status !== "scheduled" && appointment.status !== "confirmed") {
    return { allowed: false, reason: "Esta cita ya no se puede reprogramar." };
  }
  if (appointment.startsAt.getTime() <= now.getTime()) {
    return { allowed: false, reason: "Las citas pasadas no se pueden reprogramar." };
  }
  if (hoursUntil(appointment.startsAt, now) < FREE_CANCELLATION_HOURS) {
    return {
      allowed: false,
      reason: cancellationWording.rescheduleTooLate,
    };
  }
  return { allowed: true };
}

export function confirmationDecision(appointment: PolicyAppointment, now: Date): Decision {
  if (appointment.status !== "scheduled")
    return { allowed: false, reason: "Solo las citas programadas se pueden confirmar." };
  if (appointment.startsAt.getTime() <= now.getTime())
    return { allowed: false, reason: "Esta cita ya pasó." };
  return { allowed: true };
}

export const BOOKING_HORIZON_MESSAGE = `Solo se puede agendar hasta ${daysPhrase(BOOKING_HORIZON_DAYS)} hacia adelante.`;
const PAST_DATE_MESSAGE = "No se puede agendar en una fecha pasada.";
const MIN_LEAD_MESSAGE = `Elige un horario con al menos ${noticePhrase(MIN_BOOKING_LEAD_MINUTES)} de anticipación.`;

/** The earliest start a booking or a reschedule may take: the minimum notice after `now`. */
export function earliestBookableStart(now: Date): Date {
  return new Date(now.getTime() + MIN_BOOKING_LEAD_MINUTES * 60_000);
}

/** Whether a clinic calendar date lies beyond the booking horizon counted from the clinic's `today`. */
export function isBeyondBookingHorizon(date: string, today: string): boolean {
  return date > addDays(today, BOOKING_HORIZON_DAYS);
}

/** A new appointment's clinic calendar date: not before the clinic's `today`, not beyond the horizon. */
export function bookingDateDecision(date: string, today: string): Decision {
  if (date < today) return { allowed: false, reason: PAST_DATE_MESSAGE };
  if (isBeyondBookingHorizon(date, today)) return { allowed: false, reason: BOOKING_HORIZON_MESSAGE };
  return { allowed: true };
}

/** A new start must be at least an hour away and within the booking horizon. */
export function bookingWindowDecision(startsAt: Date, now: Date): Decision {
  if (startsAt.getTime() < earliestBookableStart(now).getTime()) {
    return { allowed: false, reason: MIN_LEAD_MESSAGE };
  }
  if (startsAt.getTime() > now.getTime() + BOOKING_HORIZON_DAYS * 24 * HOUR_MS) {
    return { allowed: false, reason: BOOKING_HORIZON_MESSAGE };
  }
  return { allowed: true };
}

/** The policy text shown in the cancel dialog. */
export function cancellationPolicyText(
  decision: { late: boolean; fee: number },
  formatMoney: (amount: number) => string,
) {
  return decision.late ? lateCancellationWarning(formatMoney(decision.fee)) : cancellationWording.free;
}
