import { getDb } from "~/db/client.server";
import { landingPathForRoles, safeRedirectPath } from "~/domain/roles";
import { activeRoleNames } from "~/features/accounts/role-repository.server";
import type { AuthTextKey } from "~/i18n/auth-messages";
import { getAuth } from "~/lib/auth/auth.server";
import { clientIp } from "~/lib/client-ip.server";
import { isRateLimited, type RateRule } from "~/lib/rate-limit.server";

/** Rate limits of the account flows, per IP and per account (DESIGN §6). */
export const authRateRules = {
  signInPerIp: { window: 10 * 60, max: 20 },
  signInPerAccount: { window: 10 * 60, max: 5 },
  signUpPerIp: { window: 60 * 60, max: 5 },
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
  | { ok: true; headers: Headers; notice: "check-email" }
  | { ok: false; error: AuthTextKey; status: number };

/** Set-Cookie headers of a Better Auth response, to pass on with our own redirect. */
export function forwardCookies(response: Response, headers = new Headers()): Headers {
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

async function errorCode(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { code?: unknown };
  return typeof body.code === "string" ? body.code : "";
}

export const limited = isRateLimited;

const refused = (error: AuthTextKey, status = 400): AuthOutcome => ({ ok: false, error, status });

async function landingFor(userId: string, redirectTo: string | undefined) {
  return safeRedirectPath(redirectTo) ?? landingPathForRoles(await activeRoleNames(await getDb(), userId));
}

export async function signIn(
  request: Request,
  input: { email: string; password: string; redirectTo?: string },
): Promise<AuthOutcome> {
  const ip = clientIp(request);
  if (
    await limited([
      { key: `signin:ip:${ip}`, rule: authRateRules.signInPerIp },
      { key: `signin:account:${input.email}`, rule: authRateRules.signInPerAccount },
    ])
  ) {
    return refused("rateLimited", 429);
  }
  const auth = await getAuth();
  const response = await auth.api.signInEmail({
    body: { email: input.email, password: input.password, rememberMe: true },
    headers: request.headers,
    asResponse: true,
  });
  if (!response.ok) {
    const code = await errorCode(response);
    if (code === "EMAIL_NOT_VERIFIED") return refused("emailNotConfirmed", 403);
    if (code === "INVALID_EMAIL_OR_PASSWORD") return refused("invalidCredentials", 401);
    // The session hook refuses deactivated accounts after the password was checked.
    if (code === "FAILED_TO_CREATE_SESSION") return refused("deactivated", 403);
    return refused("signInFailed", response.status >= 500 ? 502 : 400);
  }
  const body = (await response.json()) as { twoFactorRedirect?: boolean; user?: { id: string } };
  const headers = forwardCookies(response);
  if (body.twoFactorRedirect) return { ok: true, headers, step: "two-factor" };
  if (!body.user) return refused("signInFailed", 502);
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
  if (await limited([{ key: `signup:ip:${clientIp(request)}`, rule: authRateRules.signUpPerIp }])) {
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
  const cookie = request.headers.get("cookie") ?? "";
  const pending = /two_factor=([^;]+)/.exec(cookie)?.[1] ?? "none";
  if (
    await limited([
      { key: `2fa:ip:${clientIp(request)}`, rule: authRateRules.twoFactorPerIp },
      { key: `2fa:pending:${pending.slice(0, 64)}`, rule: authRateRules.twoFactorPerAccount },
    ])
  ) {
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
      { key: `reset:ip:${clientIp(request)}`, rule: authRateRules.resetPerIp },
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
  if (await limited([{ key: `reset:ip:${clientIp(request)}`, rule: authRateRules.resetPerIp }]))
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
      { key: `verify:ip:${clientIp(request)}`, rule: authRateRules.verificationPerIp },
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
