import type { AppointmentStatus } from "./appointment-status";

/**
 * The status badges of the RUT portal (Mi Ficha): confirmada, pagado and completado are green; pendiente and
 * en_proceso yellow; cancelada and vencido red; anything else grey. Pure, shared by the browser and the server.
 */

export type BadgeTone = "green" | "yellow" | "red" | "grey";

const TONES: Record<string, BadgeTone> = {
  confirmada: "green",
  pagado: "green",
  completado: "green",
  pendiente: "yellow",
  en_proceso: "yellow",
  cancelada: "red",
  vencido: "red",
};

/** A status word in its canonical form: lower case, no accents, spaces as underscores ("En proceso" → en_proceso). */
export function normaliseStatus(status: string | null | undefined): string {
  return (status ?? "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

export function badgeTone(status: string | null | undefined): BadgeTone {
  return TONES[normaliseStatus(status)] ?? "grey";
}

/** Dentalink's status words as the patient reads them (issue 24, item 16: never "en_proceso" on a badge). */
const LABELS: Record<string, string> = {
  confirmada: "Confirmada",
  confirmado: "Confirmado",
  pagado: "Pagado",
  pagada: "Pagada",
  completado: "Completado",
  completada: "Completada",
  pendiente: "Pendiente",
  en_proceso: "En proceso",
  cancelada: "Cancelada",
  cancelado: "Cancelado",
  vencido: "Vencido",
  vencida: "Vencida",
  anulado: "Anulado",
  anulada: "Anulada",
  atendido: "Atendido",
  atendida: "Atendida",
  no_asistio: "No asistió",
  activo: "Activo",
  finalizado: "Finalizado",
  abonado: "Abonado",
};

/**
 * The label of a status: the known words spelled out; anything else as Dentalink wrote it with underscores turned
 * into spaces and a capital first letter; "Sin estado" when there is none.
 */
export function statusLabel(status: string | null | undefined): string {
  const known = LABELS[normaliseStatus(status)];
  if (known) return known;
  const text = (status ?? "").trim().replace(/_+/g, " ");
  if (!text) return "Sin estado";
  return text.charAt(0).toLocaleUpperCase("es-CL") + text.slice(1);
}

/**
 * An appointment's status word for its badge: Dentalink's state names are the clinic's own ("Confirmado",
 * "Atendido", "Anulado"…), so the badge follows the state's family, and the label keeps the clinic's name.
 */
export function appointmentBadgeStatus(kind: AppointmentStatus): string {
  switch (kind) {
    case "confirmed":
      return "confirmada";
    case "completed":
      return "completado";
    case "cancelled":
      return "cancelada";
    case "scheduled":
      return "pendiente";
    case "in_progress":
      return "en_proceso";
    default:
      return "no_asistio";
  }
}

/** A progress percentage for the bar: a whole number from 0 to 100. */
export function progressPercent(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}
