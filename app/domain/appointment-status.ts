/**
 * Appointment statuses: the stored values, their Spanish badge labels and badge colours, and which
 * statuses are still live. One source for the patient area, the dashboard and the dentist agenda. Pure.
 */

export const appointmentStatuses = [
  "scheduled",
  "confirmed",
  "in_progress",
  "completed",
  "cancelled",
  "no_show",
  "pending_payment",
  "payment_failed",
] as const;
export type AppointmentStatus = (typeof appointmentStatuses)[number];

export function isAppointmentStatus(value: string): value is AppointmentStatus {
  return (appointmentStatuses as readonly string[]).includes(value);
}

/** The six badges' texts, verbatim: tests and screens pin them. */
export const appointmentStatusLabels: Readonly<Record<AppointmentStatus, string>> = {
  scheduled: "Programada",
  confirmed: "Confirmada",
  in_progress: "En Progreso",
  completed: "Completada",
  cancelled: "Cancelada",
  no_show: "No Asistió",
  pending_payment: "Pendiente de pago",
  payment_failed: "Pago no completado",
};

/** A status the portal does not know yet is shown as stored rather than hidden. */
export function appointmentStatusLabel(status: string): string {
  return isAppointmentStatus(status) ? appointmentStatusLabels[status] : status;
}

/** The badge colour family of each status; unknown statuses are grey. */
export type AppointmentStatusTone = "sky" | "emerald" | "amber" | "slate" | "red";

/**
 * Cancelled and no-show are both red: an appointment that did not take place, and the one the 100% no-show fee
 * applies to (ADR 005). The clinical record's badges (`record-badges.ts`) follow the same rule: cancelled and
 * expired red, anything unknown grey.
 */
const tones: Readonly<Record<AppointmentStatus, AppointmentStatusTone>> = {
  scheduled: "sky",
  confirmed: "emerald",
  in_progress: "amber",
  completed: "slate",
  cancelled: "red",
  no_show: "red",
  pending_payment: "amber",
  payment_failed: "slate",
};

export function appointmentStatusTone(status: string): AppointmentStatusTone {
  return isAppointmentStatus(status) ? tones[status] : "slate";
}

/** Statuses of appointments that are still going to happen or happening (not over, whatever their date). */
export const liveAppointmentStatuses = [
  "pending_payment",
  "scheduled",
  "confirmed",
  "in_progress",
] as const satisfies readonly AppointmentStatus[];

/** Statuses of appointments that are over, whatever their date. */
export const closedAppointmentStatuses = appointmentStatuses.filter(
  (status) => !(liveAppointmentStatuses as readonly string[]).includes(status),
);

export function isLiveAppointment(status: string): boolean {
  return (liveAppointmentStatuses as readonly string[]).includes(status);
}

/** Cancelled and no-show appointments stay in lists but are muted. */
export function isInactiveAppointment(status: string): boolean {
  return status === "cancelled" || status === "no_show" || status === "payment_failed";
}

/**
 * Statuses whose appointment no longer takes its slot: cancelled, and a booking released because its deposit was
 * never paid (ADR 036). The exclusion constraints of migrations 0001/0002/0024 list the same two.
 */
export const slotFreeingStatuses = [
  "cancelled",
  "payment_failed",
] as const satisfies readonly AppointmentStatus[];

/**
 * The name shown for an appointment whose treatment is unknown (none recorded, or removed from the catalogue).
 * "Consulta": the clinic's word for a visit, the first item of its catalogue ("Consulta y evaluación").
 */
export const FALLBACK_TREATMENT_NAME = "Consulta";

export function treatmentNameOrFallback(name: string | null | undefined): string {
  return name ?? FALLBACK_TREATMENT_NAME;
}
