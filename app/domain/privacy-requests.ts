/**
 * The rights request workflow (Ley 19.628 as amended by Ley 21.719, arts. 4–11; ADR 037): which steps a request
 * may take from each state, what approving each right does, and the Spanish words for all of it. Pure; the service
 * (`features/privacy/request-*.server.ts`) applies these rules under a row lock.
 */
import type { PrivacyRequestStatus, PrivacyRight } from "./privacy";

/** What can happen to a request. */
export const privacyRequestActions = [
  /** The person proved control of the e-mail or phone (public entry): the clock starts. */
  "verify",
  /** The proof of control never came in time. */
  "expire",
  /** A staff note (history only). */
  "note",
  /** The one extension of the term, with a reason sent to the person. */
  "extend",
  "approve",
  "partially_approve",
  "refuse",
  /** The person withdrew it. */
  "withdraw",
] as const;
export type PrivacyRequestAction = (typeof privacyRequestActions)[number];

const open: readonly PrivacyRequestStatus[] = ["received", "in_progress"];

/** From which states each action may be taken. Decisions close a request; a closed request only takes notes. */
const allowedFrom: Record<PrivacyRequestAction, readonly PrivacyRequestStatus[]> = {
  verify: ["unverified"],
  expire: ["unverified"],
  note: ["received", "in_progress", "approved", "partially_approved", "refused", "withdrawn"],
  extend: open,
  approve: open,
  partially_approve: open,
  refuse: open,
  withdraw: ["unverified", "received", "in_progress"],
};

/** The state an action leads to (`note` and `extend` move a received request into progress). */
const resultingState: Record<PrivacyRequestAction, PrivacyRequestStatus | "in_progress_if_received"> = {
  verify: "received",
  expire: "expired",
  note: "in_progress_if_received",
  extend: "in_progress_if_received",
  approve: "approved",
  partially_approve: "partially_approved",
  refuse: "refused",
  withdraw: "withdrawn",
};

/** Whether `action` may be taken on a request in `status`. */
export function canTake(status: PrivacyRequestStatus, action: PrivacyRequestAction): boolean {
  return allowedFrom[action].includes(status);
}

/** The state after `action`, or null when the action is not allowed from `status`. */
export function nextState(
  status: PrivacyRequestStatus,
  action: PrivacyRequestAction,
): PrivacyRequestStatus | null {
  if (!canTake(status, action)) return null;
  const next = resultingState[action];
  if (next === "in_progress_if_received") return status === "received" ? "in_progress" : status;
  return next;
}

/** The request is still waiting for the clinic's answer (the clock runs). */
export function isOpen(status: PrivacyRequestStatus): boolean {
  return open.includes(status);
}

/** Answered or abandoned: no decision may follow. */
export function isClosed(status: PrivacyRequestStatus): boolean {
  return ["approved", "partially_approved", "refused", "withdrawn", "expired"].includes(status);
}

/**
 * What approving a right does:
 * - `export`: access and portability; an account gets its export (ZIP with JSON and PDF), otherwise the clinic
 *   sends the data and records that it did.
 * - `record_correction`: rectification; staff record what was corrected (required).
 * - `erase`: erasure, everywhere the law does not require keeping the data (`eraseSubjectData`).
 * - `object`: objection (art. 8): profiling and marketing stop (two restrictions).
 * - `object_profiling`: automated decisions and profiling (art. 8 bis): the lead score stops.
 * - `block`: blocking (art. 8 ter): a 'bloqueo' restriction with no end.
 */
export type RightEffect = "export" | "record_correction" | "erase" | "object" | "object_profiling" | "block";

export const rightEffects: Record<PrivacyRight, RightEffect> = {
  acceso: "export",
  portabilidad: "export",
  rectificacion: "record_correction",
  supresion: "erase",
  oposicion: "object",
  decisiones_automatizadas: "object_profiling",
  bloqueo: "block",
};

/** The restrictions an approved objection puts in force. */
export function restrictionsForRight(right: PrivacyRight): Array<"perfilamiento" | "marketing" | "bloqueo"> {
  switch (rightEffects[right]) {
    case "object":
      return ["perfilamiento", "marketing"];
    case "object_profiling":
      return ["perfilamiento"];
    case "block":
      return ["bloqueo"];
    default:
      return [];
  }
}

/** Art. 8 ter: temporary blocking may be asked together with rectification, erasure or objection. */
export function blockingMayBeAsked(right: PrivacyRight): boolean {
  return ["rectificacion", "supresion", "oposicion", "decisiones_automatizadas"].includes(right);
}

/** The right in a few words (lists, badges, e-mails). */
export const rightLabels: Record<PrivacyRight, string> = {
  acceso: "Acceso",
  portabilidad: "Portabilidad",
  rectificacion: "Rectificación",
  supresion: "Supresión (eliminación)",
  oposicion: "Oposición",
  decisiones_automatizadas: "Oposición a decisiones automatizadas y perfilamiento",
  bloqueo: "Bloqueo",
};

/** The right as the forms offer it: what the person gets. */
export const rightDescriptions: Record<PrivacyRight, string> = {
  acceso: "Acceso: saber qué datos tienen sobre mí",
  portabilidad: "Portabilidad: recibir mis datos en un formato reutilizable",
  rectificacion: "Rectificación: corregir datos inexactos o incompletos",
  supresion: "Supresión: eliminar mis datos",
  oposicion: "Oposición: que dejen de usar mis datos para publicidad o perfilamiento",
  decisiones_automatizadas: "Decisiones automatizadas: que no me evalúen con puntajes automáticos",
  bloqueo: "Bloqueo: que suspendan el uso de mis datos sin eliminarlos",
};

export const statusLabels: Record<PrivacyRequestStatus, string> = {
  unverified: "Por confirmar",
  received: "Recibida",
  in_progress: "En curso",
  approved: "Aprobada",
  partially_approved: "Aprobada en parte",
  refused: "Rechazada",
  withdrawn: "Retirada",
  expired: "Sin confirmar (vencida)",
};

export type StatusTone = "neutral" | "info" | "good" | "bad";

export const statusTones: Record<PrivacyRequestStatus, StatusTone> = {
  unverified: "neutral",
  received: "info",
  in_progress: "info",
  approved: "good",
  partially_approved: "good",
  refused: "bad",
  withdrawn: "neutral",
  expired: "neutral",
};

/** The kinds of history entries (`privacy_request_events.kind`). */
export const privacyEventKinds = [
  "created",
  "verification_sent",
  "verification_failed",
  "verified",
  "acknowledged",
  "blocking_applied",
  "blocking_lifted",
  "note",
  "extended",
  "approved",
  "partially_approved",
  "refused",
  "executed",
  "withdrawn",
  "expired",
  "message_sent",
  "migrated",
] as const;
export type PrivacyEventKind = (typeof privacyEventKinds)[number];

export const eventLabels: Record<PrivacyEventKind, string> = {
  created: "Solicitud creada",
  verification_sent: "Enviada la confirmación de contacto",
  verification_failed: "Intento de confirmación fallido",
  verified: "Contacto confirmado: empieza el plazo legal",
  acknowledged: "Acuse de recibo enviado",
  blocking_applied: "Bloqueo temporal aplicado",
  blocking_lifted: "Bloqueo temporal levantado",
  note: "Nota interna",
  extended: "Plazo prorrogado",
  approved: "Aprobada",
  partially_approved: "Aprobada en parte",
  refused: "Rechazada",
  executed: "Ejecutada",
  withdrawn: "Retirada",
  expired: "Vencida sin confirmar",
  message_sent: "Mensaje enviado a la persona",
  migrated: "Migrada desde el formulario anterior",
};

/** A stored value in Spanish; an unexpected one is shown as stored. */
export function labelOf<K extends string>(labels: Record<K, string>, value: string): string {
  return (labels as Record<string, string>)[value] ?? value;
}

/** How the person's identity stands (the detail page's first line). */
export function identityLabel(request: { status: PrivacyRequestStatus; verifiedVia: string | null }): string {
  if (request.verifiedVia === "session") return "Verificada: sesión iniciada en su cuenta";
  if (request.verifiedVia === "email") return "Verificada: abrió el enlace enviado a su e-mail";
  if (request.verifiedVia === "whatsapp") return "Verificada: ingresó el código enviado por WhatsApp";
  if (request.status === "unverified") return "Sin confirmar: aún no prueba que controla el contacto";
  if (request.status === "expired") return "Sin confirmar: la confirmación venció";
  return "Sin verificar: recibida antes de la confirmación de contacto (verifica su identidad antes de ejecutar)";
}
