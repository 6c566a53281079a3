/**
 * The one-time code that binds an account to a clinical record (DESIGN decision 11): 6 digits, valid 10 minutes,
 * 5 attempts, then a new one is needed. Pure rules; the service draws the code and keeps its hash. Every text that
 * states the length, the lifetime or the attempts is built here from the constants.
 */

import {
  normaliseOneTimeCode,
  ONE_TIME_CODE_LENGTH,
  oneTimeCodeVerdict,
  type OneTimeCodeState,
  type OneTimeCodeVerdict,
} from "./one-time-code";
import { lifetimePhrase } from "./policy-wording";

export const RECORD_CODE_LENGTH = ONE_TIME_CODE_LENGTH;
export const RECORD_CODE_TTL_MS = 10 * 60_000;
export const RECORD_CODE_MAX_ATTEMPTS = 5;

/** "10 minutos": the code's lifetime as the WhatsApp template and the e-mail state it. */
export const RECORD_CODE_LIFETIME = lifetimePhrase(RECORD_CODE_TTL_MS);

/** The e-mail's line under the code. */
export const RECORD_CODE_EXPIRY_NOTICE = `Vence en ${RECORD_CODE_LIFETIME}. No lo compartas con nadie: la clínica nunca te lo pedirá.`;

/** The verbatim answer to every RUT submitted, known or not (enumeration-safe: it names no destination). */
export const RECORD_CODE_SENT_MESSAGE = `Si el RUT está registrado en la clínica, enviamos un código de ${RECORD_CODE_LENGTH} dígitos al teléfono o correo que la clínica tiene registrado.`;

export const RECORD_CODE_MESSAGES = {
  format: `Ingresa el código de ${RECORD_CODE_LENGTH} dígitos.`,
  wrong: "El código no es correcto.",
  expired: "El código venció. Solicita uno nuevo.",
  exhausted: `Superaste los ${RECORD_CODE_MAX_ATTEMPTS} intentos. Solicita un código nuevo.`,
  missing: "Solicita un código ingresando tu RUT.",
} as const;

export type RecordCodeState = OneTimeCodeState;
export type RecordCodeVerdict = OneTimeCodeVerdict;

/** Whether a code may still be tried (before counting this attempt). */
export function recordCodeVerdict(code: RecordCodeState, now: Date): RecordCodeVerdict {
  return oneTimeCodeVerdict(code, now, RECORD_CODE_MAX_ATTEMPTS);
}

/** Digits only, as typed with spaces or dashes ("123 456" → "123456"); null unless exactly 6 digits. */
export const normaliseRecordCode = normaliseOneTimeCode;

/** How the code reaches the patient: WhatsApp when a mobile is on file, else e-mail, else nothing. */
export function recordCodeChannel(contact: {
  mobile: string | null;
  email: string | null;
}): "whatsapp" | "email" | null {
  if (contact.mobile) return "whatsapp";
  if (contact.email) return "email";
  return null;
}

/** The reason staff must give (free text, ≥ 10 characters). */
export const STAFF_REASON_MIN_LENGTH = 10;
export const STAFF_REASON_MESSAGE = "Indica el motivo del acceso (al menos 10 caracteres).";
