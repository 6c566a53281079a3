import { createHash } from "node:crypto";
import { activeRoleNames } from "~/db/accounts.server";
import { getDb, type Database } from "~/db/client.server";
import { SIGN_IN_CODE_TTL_MS } from "~/domain/one-time-code";
import { landingPathForRoles, safeRedirectPath } from "~/domain/roles";
import { enqueueSecretEmail } from "~/features/email/email-outbox.server";
import { failedSignInAlertEmail, signInCodeEmail } from "~/features/email/email-templates";
import { enqueue } from "~/features/outbox/outbox.server";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import type { AuthTextKey } from "~/i18n/auth-messages";
import { authCookieName } from "~/lib/auth/auth.server";
import { TWO_FACTOR_COOKIE } from "~/lib/auth/oauth-second-factor";
import { authCookieValue } from "~/lib/auth/session.server";
import {
  issueSignInStepUp,
  newStepUpChallenge,
  SIGN_IN_STEP_UP_COOKIE,
} from "~/lib/auth/sign-in-step-up.server";
import { rateLimitIp } from "~/lib/client-ip.server";
import { clinicFacts, publicBaseUrl } from "~/lib/base/env.server";
import {
  checkBlocked,
  clearRates,
  consumeRate,
  isRateLimited,
  type RateCheck,
  type RateRule,
} from "~/lib/rate-limit.server";
import { getAuth } from "./auth-instance.server";

/**
 * Rate limits of the account flows, per IP and per account (ADR 007). Sized for a shared network (a clinic's
 * reception desk, a family or a company behind one address): sign-in limits count only failures, and the account
 * limit is keyed on account + IP so that nobody can lock another person out from elsewhere; a looser account-wide
 * ceiling still stops a password spray from many addresses.
 */
export const authRateRules = {
  signInFailuresPerIp: { window: 15 * 60, max: 50 },
  signInFailuresPerAccountIp: { window: 15 * 60, max: 10 },
  signInFailuresPerAccount: { window: 60 * 60, max: 100 },
  /** Step-up codes e-mailed per account (each needs the right password). */
  stepUpCodesPerAccount: { window: 60 * 60, max: 5 },
  stepUpCodeEntriesPerIp: { window: 10 * 60, max: 20 },
  signUpPerIp: { window: 60 * 60, max: 30 },
  resetPerIp: { window: 60 * 60, max: 10 },
  resetPerAccount: { window: 60 * 60, max: 3 },
  verificationPerIp: { window: 60 * 60, max: 10 },
  verificationPerAccount: { window: 60 * 60, max: 3 },
  twoFactorPerIp: { window: 10 * 60, max: 20 },
  twoFactorPerAccount: { window: 10 * 60, max: 5 },
  oauthStartPerIp: { window: 10 * 60, max: 30 },
} satisfies Record<string, RateRule>;

export type AuthOutcome =
  | { ok: true; headers: Headers; redirectTo: string }
  | { ok: true; headers: Headers; step: "two-factor" }
  | { ok: true; headers: Headers; step: "email-code" }
  | { ok: true; headers: Headers; notice: "check-email" }
  | { ok: false; error: AuthTextKey; status: number };

/** Set-Cookie headers of a Better Auth response, to pass on with our own redirect. */
export function forwardCookies(response: Response, headers = new Headers()): Headers {
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/** Better Auth's error code of a refused call (`INVALID_PASSWORD`, `EMAIL_NOT_VERIFIED`…), "" when there is none. */
export async function errorCode(response: Response): Promise<string> {
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { code?: unknown };
  return typeof body.code === "string" ? body.code : "";
}

export const limited = isRateLimited;

const refused = (error: AuthTextKey, status = 400): AuthOutcome => ({ ok: false, error, status });

async function landingFor(userId: string, redirectTo: string | undefined) {
  return safeRedirectPath(redirectTo) ?? landingPathForRoles(await activeRoleNames(await getDb(), userId));
}

function signInFailureChecks(request: Request, email: string) {
  const ip = rateLimitIp(request);
  return {
    perIp: { key: `signin-fail:ip:${ip}`, rule: authRateRules.signInFailuresPerIp },
    perAccountIp: {
      key: `signin-fail:account-ip:${email}|${ip}`,
      rule: authRateRules.signInFailuresPerAccountIp,
    },
    perAccount: { key: `signin-fail:account:${email}`, rule: authRateRules.signInFailuresPerAccount },
  } satisfies Record<string, RateCheck>;
}

/** The step-up challenge cookie (Max-Age=0 clears it). */
function stepUpCookie(challenge: string | null): string {
  return [
    `${authCookieName(SIGN_IN_STEP_UP_COOKIE)}=${challenge ?? ""}`,
    `Max-Age=${challenge ? SIGN_IN_CODE_TTL_MS / 1000 : 0}`,
    "Path=/",
    "HttpOnly",
    publicBaseUrl().startsWith("https://") ? "Secure" : null,
    "SameSite=Lax",
  ]
    .filter(Boolean)
    .join("; ");
}

/**
 * The one answer past the account's failure limit, to every password: a challenge cookie and the code screen. Only
 * the right password also e-mails a code bound to that challenge, so the answer tells nothing about the password.
 */
function stepUpAnswer(challenge = newStepUpChallenge()): AuthOutcome {
  return { ok: true, headers: new Headers({ "Set-Cookie": stepUpCookie(challenge) }), step: "email-code" };
}

/**
 * Once per lockout window (the outbox keeps one row per idempotency key), the account's owner hears of the spray.
 * An address with no account gets nothing.
 */
async function alertOwner(db: Database, email: string, lockEndsAt: Date) {
  const auth = await getAuth();
  const found = await (await auth.$context).internalAdapter.findUserByEmail(email);
  if (!found) return;
  const queued = await enqueue(db, {
    kind: "email",
    idempotencyKey: `signin-alert:${found.user.id}:${lockEndsAt.getTime()}`,
    payload: {
      to: found.user.email,
      ...failedSignInAlertEmail(clinicFacts(), found.user.name, `${publicBaseUrl()}/auth/recuperar`),
    },
  });
  if (queued) kickOutboxWorker();
}

async function recordFailure(db: Database, checks: ReturnType<typeof signInFailureChecks>, email: string) {
  for (const { key, rule } of Object.values(checks)) await consumeRate(db, key, rule);
  const lock = await checkBlocked(db, [checks.perAccount]);
  if (lock.resetsAt) await alertOwner(db, email, lock.resetsAt);
}

/** Mails the code of a new step-up bound to `challenge` (a few an hour per account at most). */
async function sendStepUpCode(
  db: Database,
  user: { id: string; email: string; name: string },
  challenge: string,
) {
  const budget = await consumeRate(
    db,
    `signin-stepup:account:${user.id}`,
    authRateRules.stepUpCodesPerAccount,
  );
  if (!budget.allowed) return;
  const auth = await getAuth();
  const code = await issueSignInStepUp(db, {
    secret: (await auth.$context).secret,
    userId: user.id,
    challenge,
  });
  // One code per challenge; the key names the challenge by its hash only (the code is in the sealed body).
  await enqueueSecretEmail(db, {
    idempotencyKey: `signin-code:${user.id}:${createHash("sha256").update(challenge).digest("hex")}`,
    to: user.email,
    content: signInCodeEmail(clinicFacts(), user.name, code),
  });
  kickOutboxWorker();
}

/**
 * Sign-in with e-mail and password. Per-address limits refuse outright (429). Past the account-wide failure limit
 * (a spray from many addresses, ADR 007) the account is not locked: the right password still passes, with a
 * step-up — the account's second factor when enrolled, otherwise a one-time code e-mailed to its owner (ADR 031).
 */
export async function signIn(
  request: Request,
  input: { email: string; password: string; redirectTo?: string },
): Promise<AuthOutcome> {
  const db = await getDb();
  const checks = signInFailureChecks(request, input.email);
  if (!(await checkBlocked(db, [checks.perIp, checks.perAccountIp])).allowed) {
    return refused("rateLimited", 429);
  }
  const stepUp = !(await checkBlocked(db, [checks.perAccount])).allowed;
  const auth = await getAuth();
  const response = await auth.api.signInEmail({
    body: { email: input.email, password: input.password, rememberMe: true },
    headers: request.headers,
    asResponse: true,
  });
  if (!response.ok) {
    const code = await errorCode(response);
    if (code === "INVALID_EMAIL_OR_PASSWORD") {
      await recordFailure(db, checks, input.email);
      return stepUp ? stepUpAnswer() : refused("invalidCredentials", 401);
    }
    // Past the limit only the code screen answers, so that no other refusal tells the password was right.
    if (stepUp) return stepUpAnswer();
    if (code === "EMAIL_NOT_VERIFIED") return refused("emailNotConfirmed", 403);
    // The session hook refuses deactivated accounts after the password was checked.
    if (code === "FAILED_TO_CREATE_SESSION") return refused("deactivated", 403);
    return refused("signInFailed", response.status >= 500 ? 502 : 400);
  }
  // The right password from this address forgets this address's failures on the account (not the others').
  await clearRates(db, [checks.perAccountIp.key]);
  const body = (await response.json()) as {
    twoFactorRedirect?: boolean;
    token?: string;
    user?: { id: string; email: string; name: string };
  };
  // An account with a second factor has no session yet: its code is the step-up.
  if (body.twoFactorRedirect) return { ok: true, headers: forwardCookies(response), step: "two-factor" };
  if (!body.user) return refused("signInFailed", 502);
  if (stepUp) {
    // The session Better Auth just created is dropped unseen (its cookie is not passed on); the code makes one.
    if (body.token) await (await auth.$context).internalAdapter.deleteSession(body.token);
    const challenge = newStepUpChallenge();
    await sendStepUpCode(db, body.user, challenge);
    return stepUpAnswer(challenge);
  }
  return {
    ok: true,
    headers: forwardCookies(response),
    redirectTo: await landingFor(body.user.id, input.redirectTo),
  };
}

/** The step-up's second half: the e-mailed code, typed in the browser that holds the challenge cookie. */
export async function verifySignInStepUp(
  request: Request,
  input: { code: string; redirectTo?: string },
): Promise<AuthOutcome> {
  const ip = rateLimitIp(request);
  if (await limited([{ key: `signin-stepup:ip:${ip}`, rule: authRateRules.stepUpCodeEntriesPerIp }])) {
    return refused("rateLimited", 429);
  }
  const challenge = authCookieValue(request, SIGN_IN_STEP_UP_COOKIE);
  if (!challenge) return refused("invalidStepUpCode", 401);
  const auth = await getAuth();
  const response = await auth.api.verifySignInStepUp({
    body: { challenge, code: input.code },
    headers: request.headers,
    asResponse: true,
  });
  // One answer for every failure: wrong, expired, used, out of attempts, or a challenge no code was sent for.
  if (!response.ok) return refused("invalidStepUpCode", 401);
  const body = (await response.json()) as { user: { id: string } };
  const headers = forwardCookies(response);
  headers.append("Set-Cookie", stepUpCookie(null));
  return { ok: true, headers, redirectTo: await landingFor(body.user.id, input.redirectTo) };
}

export async function signUp(
  request: Request,
  input: {
    firstName: string;
    lastName: string;
    email: string;
    password: string;
    phone: string | null;
    redirectTo?: string;
  },
): Promise<AuthOutcome> {
  if (await limited([{ key: `signup:ip:${rateLimitIp(request)}`, rule: authRateRules.signUpPerIp }])) {
    return refused("rateLimited", 429);
  }
  const auth = await getAuth();
  const response = await auth.api.signUpEmail({
    body: {
      name: input.firstName,
      lastName: input.lastName,
      email: input.email,
      password: input.password,
      phone: input.phone ?? undefined,
    },
    headers: request.headers,
    asResponse: true,
  });
  if (!response.ok) {
    const code = await errorCode(response);
    if (code.startsWith("USER_ALREADY_EXISTS")) return refused("userExists", 409);
    if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG") return refused("passwordTooShort");
    return refused("signUpFailed", response.status >= 500 ? 502 : 400);
  }
  const headers = forwardCookies(response);
  const body = (await response.json()) as { token?: string | null; user?: { id: string } };
  // Without a session (AUTH_EMAIL_VERIFICATION=required) the person must confirm the e-mail first.
  if (!body.token || !body.user) return { ok: true, headers, notice: "check-email" };
  return { ok: true, headers, redirectTo: safeRedirectPath(input.redirectTo) ?? "/paciente" };
}

/** Second step of a sign-in with two-factor: the pending state lives in Better Auth's signed cookie. */
export async function verifySecondFactor(
  request: Request,
  input: { code: string; useBackupCode: boolean; redirectTo?: string },
): Promise<AuthOutcome> {
  // Keyed on the pending challenge itself (Better Auth's signed cookie), found by its exact name.
  const pending = authCookieValue(request, TWO_FACTOR_COOKIE);
  const checks: RateCheck[] = [{ key: `2fa:ip:${rateLimitIp(request)}`, rule: authRateRules.twoFactorPerIp }];
  if (pending) {
    // The challenge's identifier (before the signature), so signature variants share one budget.
    const identifier = pending.slice(0, Math.max(0, pending.lastIndexOf(".")) || undefined);
    const digest = createHash("sha256").update(identifier).digest("base64url");
    checks.push({ key: `2fa:pending:${digest}`, rule: authRateRules.twoFactorPerAccount });
  }
  if (await limited(checks)) {
    return refused("rateLimited", 429);
  }
  const auth = await getAuth();
  const response = input.useBackupCode
    ? await auth.api.verifyBackupCode({
        body: { code: input.code },
        headers: request.headers,
        asResponse: true,
      })
    : await auth.api.verifyTOTP({ body: { code: input.code }, headers: request.headers, asResponse: true });
  if (!response.ok) return refused("invalidCode", 401);
  const body = (await response.json()) as { user?: { id: string } };
  if (!body.user) return refused("signInFailed", 502);
  return {
    ok: true,
    headers: forwardCookies(response),
    redirectTo: await landingFor(body.user.id, input.redirectTo),
  };
}

export async function signOut(request: Request): Promise<Headers> {
  const auth = await getAuth();
  const response = await auth.api.signOut({ headers: request.headers, asResponse: true });
  return forwardCookies(response);
}

/** Always answers the same way, whether the e-mail has an account or not. */
export async function requestPasswordReset(
  request: Request,
  email: string,
): Promise<"sent" | "rate-limited"> {
  if (
    await limited([
      { key: `reset:ip:${rateLimitIp(request)}`, rule: authRateRules.resetPerIp },
      { key: `reset:account:${email}`, rule: authRateRules.resetPerAccount },
    ])
  ) {
    return "rate-limited";
  }
  const auth = await getAuth();
  await auth.api.requestPasswordReset({
    body: { email, redirectTo: "/auth/restablecer" },
    headers: request.headers,
  });
  return "sent";
}

/** Sets the new password; Better Auth revokes every session of the account (revokeSessionsOnPasswordReset). */
export async function resetPassword(
  request: Request,
  token: string,
  newPassword: string,
): Promise<"done" | "invalid" | "rate-limited"> {
  if (await limited([{ key: `reset:ip:${rateLimitIp(request)}`, rule: authRateRules.resetPerIp }]))
    return "rate-limited";
  const auth = await getAuth();
  const response = await auth.api.resetPassword({
    body: { token, newPassword },
    headers: request.headers,
    asResponse: true,
  });
  return response.ok ? "done" : "invalid";
}

/** Sends the verification e-mail again to the signed-in user. */
export async function resendVerification(request: Request, email: string): Promise<"sent" | "rate-limited"> {
  if (
    await limited([
      { key: `verify:ip:${rateLimitIp(request)}`, rule: authRateRules.verificationPerIp },
      { key: `verify:account:${email}`, rule: authRateRules.verificationPerAccount },
    ])
  ) {
    return "rate-limited";
  }
  const auth = await getAuth();
  await auth.api.sendVerificationEmail({
    body: { email, callbackURL: "/paciente" },
    headers: request.headers,
  });
  return "sent";
}
