/**
 * Proof of control of the public rights entry (/eliminar-datos; ADR 037): a single-use link e-mailed to the address,
 * or, with only a phone, a 6-digit code sent by WhatsApp. Nothing is processed before it. Pure rules; the service
 * draws the secrets and keeps only their keyed hashes.
 */
import { oneTimeCodeVerdict, type OneTimeCodeState, type OneTimeCodeVerdict } from "./one-time-code";
import { lifetimePhrase } from "./policy-wording";

/** The e-mailed link: long enough to open it later the same day, single use. */
export const PRIVACY_LINK_TTL_MS = 24 * 60 * 60_000;
export const PRIVACY_LINK_LIFETIME = lifetimePhrase(PRIVACY_LINK_TTL_MS);
/** The WhatsApp code: 10 minutes, 5 attempts, single use. */
export const PRIVACY_CODE_TTL_MS = 10 * 60_000;
export const PRIVACY_CODE_LIFETIME = lifetimePhrase(PRIVACY_CODE_TTL_MS);
export const PRIVACY_CODE_MAX_ATTEMPTS = 5;
/** An unconfirmed request is closed as `expired` once every proof it was sent has run out, after this long. */
export const UNVERIFIED_EXPIRY_MS = 48 * 60 * 60_000;

export function privacyCodeVerdict(code: OneTimeCodeState, now: Date): OneTimeCodeVerdict {
  return oneTimeCodeVerdict(code, now, PRIVACY_CODE_MAX_ATTEMPTS);
}

/** The same words whether the address is known to the clinic or not (nothing is looked up before the proof). */
export function publicReceiptMessage(via: "email" | "whatsapp"): string {
  return via === "email"
    ? `Te enviamos un enlace de confirmación por e-mail. Ábrelo dentro de ${PRIVACY_LINK_LIFETIME} para que procesemos tu solicitud: hasta entonces no hacemos nada con ella.`
    : `Te enviamos un código de 6 dígitos por WhatsApp. Ingrésalo aquí dentro de ${PRIVACY_CODE_LIFETIME} para que procesemos tu solicitud: hasta entonces no hacemos nada con ella.`;
}

export const PRIVACY_VERIFICATION_MESSAGES = {
  wrong: "El código no es correcto.",
  expired: "El código venció. Envía la solicitud nuevamente para recibir uno nuevo.",
  exhausted: `Superaste los ${PRIVACY_CODE_MAX_ATTEMPTS} intentos. Envía la solicitud nuevamente para recibir un código nuevo.`,
  linkInvalid:
    "El enlace no es válido, ya se usó o venció. Si aún quieres ejercer tu derecho, envía la solicitud nuevamente.",
} as const;
