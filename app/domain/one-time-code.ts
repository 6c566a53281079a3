/**
 * The one-time codes the product sends (Mi Ficha's binding code, the sign-in step-up code): 6 digits, a lifetime,
 * a number of attempts, single use. Pure rules; the services draw the code and keep only its keyed hash.
 */

import { lifetimePhrase } from "./policy-wording";

export const ONE_TIME_CODE_LENGTH = 6;

/** The sign-in step-up past the per-account failure limit (ADR 031): a code e-mailed to the owner. */
export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;
export const SIGN_IN_CODE_MAX_ATTEMPTS = 5;
/** "10 minutos": the sign-in code's lifetime as its e-mail and the sign-in screen state it. */
export const SIGN_IN_CODE_LIFETIME = lifetimePhrase(SIGN_IN_CODE_TTL_MS);

export interface OneTimeCodeState {
  expiresAt: Date;
  attempts: number;
  consumedAt: Date | null;
}

export type OneTimeCodeVerdict = "usable" | "expired" | "exhausted" | "consumed";

/** Whether a code may still be tried (before counting this attempt). */
export function oneTimeCodeVerdict(
  code: OneTimeCodeState,
  now: Date,
  maxAttempts: number,
): OneTimeCodeVerdict {
  if (code.consumedAt !== null) return "consumed";
  if (code.attempts >= maxAttempts) return "exhausted";
  if (now.getTime() >= code.expiresAt.getTime()) return "expired";
  return "usable";
}

/** Digits only, as typed with spaces or dashes ("123 456" → "123456"); null unless exactly 6 digits. */
export function normaliseOneTimeCode(input: string): string | null {
  const digits = input.replace(/[\s-]/g, "");
  return new RegExp(`^\\d{${ONE_TIME_CODE_LENGTH}}$`).test(digits) ? digits : null;
}
