/** Appointment status labels and badge colours for staff screens (client-safe). */

export const appointmentStatusLabels: Record<string, string> = {
  scheduled: "Programada",
  confirmed: "Confirmada",
  in_progress: "En Progreso",
  completed: "Completada",
  cancelled: "Cancelada",
  no_show: "No Asistió",
};

/** A status the portal does not know yet is shown as stored rather than hidden. */
export function appointmentStatusLabel(status: string): string {
  return Object.hasOwn(appointmentStatusLabels, status) ? appointmentStatusLabels[status]! : status;
}

const badgeClasses: Record<string, string> = {
  scheduled: "bg-sky-100 text-sky-900",
  confirmed: "bg-emerald-100 text-emerald-900",
  in_progress: "bg-amber-100 text-amber-900",
  completed: "bg-slate-200 text-slate-800",
  cancelled: "bg-red-100 text-red-900",
  no_show: "bg-red-100 text-red-900",
};

export function appointmentStatusBadgeClass(status: string): string {
  return Object.hasOwn(badgeClasses, status) ? badgeClasses[status]! : "bg-slate-100 text-slate-800";
}

/** Cancelled and no-show appointments stay in the list but are muted. */
export function isInactiveAppointment(status: string): boolean {
  return status === "cancelled" || status === "no_show";
}

export const DEFAULT_APPOINTMENT_MINUTES = 60;
