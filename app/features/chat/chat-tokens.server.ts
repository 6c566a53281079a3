import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getAuth } from "~/features/auth/auth-instance.server";

/** Chat token lifetimes: access tokens are short so a leaked one is worth little (ADR 032). */
export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface AccessClaims {
  guestId: string;
  accountId: string;
  /** A signed-in guest's session (ADR 032): the token is refused once it has ended. Absent for anonymous guests. */
  sessionId?: string;
  /** Expiry, epoch milliseconds. */
  exp: number;
}

const keys = new Map<string, Promise<Buffer>>();

/**
 * A key of its own for each use (`purpose`), derived from the auth secret (never the secret itself): a token signed
 * for one use never verifies as another (an access token is no room link).
 */
export function derivedKey(purpose: string): Promise<Buffer> {
  let key = keys.get(purpose);
  if (!key) {
    key = getAuth()
      .then((auth) => auth.$context)
      .then((context) => createHmac("sha256", context.secret).update(purpose).digest());
    keys.set(purpose, key);
  }
  return key;
}

const signingKey = () => derivedKey("chat-access-token-v1");

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

export function randomSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** `payload.signature`, both base64url: stateless, checked on every API call and stream. */
export async function signAccessToken(claims: AccessClaims): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify({ g: claims.guestId, a: claims.accountId, e: claims.exp, s: claims.sessionId }),
  ).toString("base64url");
  const signature = createHmac("sha256", await signingKey())
    .update(payload)
    .digest("base64url");
  return `${payload}.${signature}`;
}

export async function verifyAccessToken(token: string, now = Date.now()): Promise<AccessClaims | null> {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = createHmac("sha256", await signingKey())
    .update(payload)
    .digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof parsed.g !== "string" || typeof parsed.a !== "string" || typeof parsed.e !== "number")
      return null;
    if (parsed.s !== undefined && typeof parsed.s !== "string") return null;
    if (parsed.e <= now) return null;
    return {
      guestId: parsed.g,
      accountId: parsed.a,
      exp: parsed.e,
      ...(parsed.s === undefined ? {} : { sessionId: parsed.s }),
    };
  } catch {
    return null;
  }
}
