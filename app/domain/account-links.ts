/**
 * How long the links e-mailed for an account stay valid. The auth configuration takes its lifetimes from here, and
 * the e-mails and screens that state them take their words from here. Pure.
 */
import { lifetimePhrase } from "./policy-wording";

export const PASSWORD_RESET_LINK_TTL_SECONDS = 60 * 60;
export const EMAIL_VERIFICATION_LINK_TTL_SECONDS = 24 * 60 * 60;

/** "1 hora". */
export const PASSWORD_RESET_LINK_LIFETIME = lifetimePhrase(PASSWORD_RESET_LINK_TTL_SECONDS * 1000);
/** "24 horas". */
export const EMAIL_VERIFICATION_LINK_LIFETIME = lifetimePhrase(EMAIL_VERIFICATION_LINK_TTL_SECONDS * 1000);
