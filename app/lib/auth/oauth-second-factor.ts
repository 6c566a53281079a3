/** Client-safe names shared by the OAuth second-factor hook, the callback page and /auth. */

/** How long the "password (or Google) done, second factor pending" state lasts: Better Auth's own default. */
export const TWO_FACTOR_PENDING_SECONDS = 600;
/** The pending state's cookie, as Better Auth's two-factor plugin names it (before our prefix). */
export const TWO_FACTOR_COOKIE = "two_factor";
/** The query parameter that asks /auth (and the callback page) for the code step after Google. */
export const OAUTH_SECOND_FACTOR_STEP = { param: "paso", value: "2fa" } as const;
/** Callback error: a staff account that must use two-factor has not enrolled yet. */
export const OAUTH_ENROLMENT_REQUIRED_ERROR = "two_factor_enrolment_required";
