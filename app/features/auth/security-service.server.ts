import { rateLimitIp } from "~/lib/client-ip.server";
import { getAuth } from "./auth-instance.server";
import { AppError } from "~/lib/base/errors";
import { authRateRules, errorCode, forwardCookies, limited } from "./auth-service.server";

/** A change that went through; refusals are thrown as AppError with a Spanish message. */
export type SecurityOutcome =
  | { kind: "enrol"; qrSvg: string; secret: string; backupCodes: string[] }
  | { kind: "enabled" | "disabled" | "password-changed"; headers?: Headers }
  | { kind: "backup-codes"; backupCodes: string[] };

const messages = {
  rateLimited: "Demasiados intentos. Espera unos minutos e inténtalo nuevamente.",
  wrongPassword: "La contraseña actual no es correcta.",
  notFresh: "Por seguridad, vuelve a iniciar sesión y repite este cambio.",
  invalidCode: "El código no es válido. Revisa la hora de tu teléfono e inténtalo nuevamente.",
  failed: "No se pudo completar el cambio. Inténtalo nuevamente.",
};

async function refusal(response: Response): Promise<never> {
  const code = await errorCode(response);
  if (code === "INVALID_PASSWORD") throw new AppError("VALIDATION", messages.wrongPassword);
  if (code === "SESSION_NOT_FRESH" || code === "SESSION_EXPIRED")
    throw new AppError("FORBIDDEN", messages.notFresh);
  if (code.includes("OTP") || code.includes("CODE")) throw new AppError("VALIDATION", messages.invalidCode);
  throw new AppError(response.status >= 500 ? "UPSTREAM_FAILED" : "VALIDATION", messages.failed);
}

async function throttled(request: Request, userId: string) {
  return limited([
    { key: `security:ip:${rateLimitIp(request)}`, rule: authRateRules.twoFactorPerIp },
    { key: `security:account:${userId}`, rule: authRateRules.twoFactorPerAccount },
  ]);
}

type AuthApi = Awaited<ReturnType<typeof getAuth>>["api"];

/**
 * The common path of every security change: the per-IP and per-account limit, one Better Auth call on behalf of
 * this request, a refusal mapped to Spanish, or `onSuccess` with the response.
 */
async function securityCall(
  request: Request,
  userId: string,
  call: (api: AuthApi, headers: Headers) => Promise<Response>,
  onSuccess: (response: Response) => Promise<SecurityOutcome> | SecurityOutcome,
): Promise<SecurityOutcome> {
  if (await throttled(request, userId)) throw new AppError("RATE_LIMITED", messages.rateLimited);
  const response = await call((await getAuth()).api, request.headers);
  return response.ok ? onSuccess(response) : refusal(response);
}

/** Step 1 of two-factor: the password confirms it is the owner; answers the QR code, the secret and backup codes. */
export function startTwoFactor(request: Request, userId: string, password: string) {
  return securityCall(
    request,
    userId,
    (api, headers) => api.enableTwoFactor({ body: { password }, headers, asResponse: true }),
    async (response): Promise<SecurityOutcome> => {
      const body = (await response.json()) as { totpURI: string; backupCodes: string[] };
      const secret = new URL(body.totpURI).searchParams.get("secret") ?? "";
      const { default: QRCode } = await import("qrcode");
      const qrSvg = await QRCode.toString(body.totpURI, { type: "svg", margin: 1, width: 200 });
      return { kind: "enrol", qrSvg, secret, backupCodes: body.backupCodes };
    },
  );
}

/** Step 2: a code from the app proves the enrolment; two-factor is on from now. */
export function confirmTwoFactor(request: Request, userId: string, code: string) {
  return securityCall(
    request,
    userId,
    (api, headers) => api.verifyTOTP({ body: { code }, headers, asResponse: true }),
    (response) => ({ kind: "enabled", headers: forwardCookies(response) }),
  );
}

export function disableTwoFactor(request: Request, userId: string, password: string) {
  return securityCall(
    request,
    userId,
    (api, headers) => api.disableTwoFactor({ body: { password }, headers, asResponse: true }),
    (response) => ({ kind: "disabled", headers: forwardCookies(response) }),
  );
}

export function newBackupCodes(request: Request, userId: string, password: string) {
  return securityCall(
    request,
    userId,
    (api, headers) => api.generateBackupCodes({ body: { password }, headers, asResponse: true }),
    async (response): Promise<SecurityOutcome> => {
      const body = (await response.json()) as { backupCodes: string[] };
      return { kind: "backup-codes", backupCodes: body.backupCodes };
    },
  );
}

/** Changes the password and ends every other session of the account (a stolen one ends with it). */
export function changePassword(
  request: Request,
  userId: string,
  currentPassword: string,
  newPassword: string,
) {
  return securityCall(
    request,
    userId,
    (api, headers) =>
      api.changePassword({
        body: { currentPassword, newPassword, revokeOtherSessions: true },
        headers,
        asResponse: true,
      }),
    (response) => ({ kind: "password-changed", headers: forwardCookies(response) }),
  );
}

/**
 * Whether `password` is the signed-in account's (Better Auth checks it against the stored hash); false for an
 * account without a password (Google only). The caller rate-limits; Mi Ficha's reopening uses it.
 */
export async function passwordMatches(request: Request, password: string): Promise<boolean> {
  const auth = await getAuth();
  const response = await auth.api.verifyPassword({
    body: { password },
    headers: request.headers,
    asResponse: true,
  });
  if (response.ok) return true;
  if ((await errorCode(response)) === "INVALID_PASSWORD") return false;
  throw new AppError(response.status >= 500 ? "UPSTREAM_FAILED" : "VALIDATION", messages.failed);
}
