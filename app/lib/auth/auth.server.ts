import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { twoFactor } from "better-auth/plugins/two-factor";
import { eq } from "drizzle-orm";
import { activeRoleNames, grantRole } from "~/db/accounts.server";
import { getDb, type Database } from "~/db/client.server";
import { accounts, sessions, twoFactors, users, verifications } from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/client-ip.server";
import type { ClinicFacts } from "~/config/clinic";
import { EMAIL_VERIFICATION_LINK_TTL_SECONDS, PASSWORD_RESET_LINK_TTL_SECONDS } from "~/domain/account-links";
import {
  clinicFacts,
  env,
  googleSettings,
  isDemoMode,
  publicBaseUrl,
  staffTwoFactorRequired,
  type Env,
} from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { consumeRate } from "~/lib/rate-limit.server";
import { TWO_FACTOR_PENDING_SECONDS } from "./oauth-second-factor";
import { oauthSecondFactor } from "./oauth-second-factor.server";
import { createPasswordHasher } from "./password-hashing.server";
import { SIGN_IN_STEP_UP_PATH, signInStepUp } from "./sign-in-step-up.server";

export const AUTH_BASE_PATH = "/api/auth";
export const GOOGLE_PROVIDER_ID = "google";
export const SESSION_COOKIE_PREFIX = "clinica";

/**
 * The cookies' name prefix: over https `__Host-` (Secure, Path=/, no Domain: the browser refuses the cookie from a
 * subdomain or over http), otherwise the plain prefix for local http.
 */
export function authCookiePrefix(current: Env = env()): string {
  return publicBaseUrl(current).startsWith("https://")
    ? `__Host-${SESSION_COOKIE_PREFIX}`
    : SESSION_COOKIE_PREFIX;
}

/** The full name of one of Better Auth's cookies (`session_token`, `two_factor`, …) as this server sets it. */
export function authCookieName(name: string, current: Env = env()): string {
  return `${authCookiePrefix(current)}.${name}`;
}

/**
 * The only Better Auth endpoints reachable over HTTP: where the browser arrives from a link or the provider.
 * Everything else (sign-in, sign-up, two-factor, password checks, sessions…) goes through our own actions, which
 * validate, rate-limit per IP and per account and answer in Spanish; auth.api still reaches every endpoint.
 */
const HTTP_AUTH_PATHS = [
  /^\/callback\/[\w-]+$/,
  /^\/verify-email$/,
  /^\/reset-password\/[^/]+$/,
  /^\/error$/,
];

export function isPublicAuthPath(pathname: string): boolean {
  if (!pathname.startsWith(`${AUTH_BASE_PATH}/`)) return false;
  const endpoint = pathname.slice(AUTH_BASE_PATH.length);
  return HTTP_AUTH_PATHS.some((pattern) => pattern.test(endpoint));
}

/**
 * Better Auth endpoints our own route actions wrap (validation, DB rate limits per IP and per account, Spanish
 * messages). Over HTTP they answer 404, so nobody can go around those limits; auth.api still reaches them.
 */
const wrappedPaths = [
  "/sign-in/email",
  "/sign-up/email",
  "/request-password-reset",
  "/reset-password",
  "/send-verification-email",
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/two-factor/enable",
  "/two-factor/disable",
  "/change-password",
  "/update-user",
  "/change-email",
  "/delete-user",
  "/two-factor/generate-backup-codes",
  "/two-factor/get-totp-uri",
  "/two-factor/send-otp",
  "/two-factor/verify-otp",
  "/verify-password",
  "/sign-in/social",
  "/link-social",
  "/unlink-account",
  "/get-access-token",
  "/refresh-token",
  "/update-session",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
  "/list-sessions",
  "/list-accounts",
  SIGN_IN_STEP_UP_PATH,
];

function authSecret(current: Env): string {
  if (current.AUTH_SECRET) return current.AUTH_SECRET;
  // Only reached in demo mode: env.server.ts refuses to boot without AUTH_SECRET otherwise.
  if (current.DATA_DIR === "memory://" || current.DATABASE_URL) return randomBytes(32).toString("base64url");
  // The embedded demo keeps a generated secret beside its data, so sessions survive restarts.
  const file = path.resolve(current.DATA_DIR, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** A link Better Auth wants mailed to a user (its token is a secret: ADR 029). */
export interface AuthMailRequest {
  db: Database;
  clinic: ClinicFacts;
  user: { id: string; email: string; name: string };
  url: string;
}

/** The account e-mails (password reset, address verification), supplied by a feature: lib sends no mail itself. */
export interface AuthMail {
  sendPasswordReset(request: AuthMailRequest): Promise<void>;
  sendVerification(request: AuthMailRequest): Promise<void>;
}

const holder = globalThis as typeof globalThis & {
  __clinicaAuth?: Promise<Auth>;
  __clinicaAuthMail?: AuthMail;
};

/**
 * Wires the account e-mails (features/auth/auth-instance.server.ts does, before it hands the instance out). Read
 * when a mail is due, not when the instance is built, so the session lookup may build the instance first.
 */
export function registerAuthMail(mail: AuthMail): void {
  holder.__clinicaAuthMail = mail;
}

function registeredMail(): AuthMail {
  const mail = holder.__clinicaAuthMail;
  if (!mail)
    throw new Error("auth e-mails are not wired: take the instance from features/auth/auth-instance.server");
  return mail;
}

function createAuth(db: Database, current: Env) {
  const clinic = clinicFacts(current);
  const baseURL = publicBaseUrl(current);
  const hasher = createPasswordHasher(current.AUTH_MAX_CONCURRENT_HASHES);
  const google = googleSettings(current);

  return betterAuth({
    appName: clinic.name,
    baseURL,
    basePath: AUTH_BASE_PATH,
    secret: authSecret(current),
    telemetry: { enabled: false },
    trustedOrigins: [baseURL],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        twoFactor: twoFactors,
      },
    }),
    user: {
      // One users table with first and last name: Better Auth's `name` is the first name; the last name is ours.
      fields: { name: "firstName" },
      additionalFields: {
        lastName: { type: "string", required: false, defaultValue: "", input: true },
        phone: { type: "string", required: false, input: true },
        address: { type: "string", required: false, input: false },
        emergencyContact: { type: "string", required: false, input: false },
        emergencyPhone: { type: "string", required: false, input: false },
        rut: { type: "string", required: false, input: false },
        deactivatedAt: { type: "date", required: false, input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      requireEmailVerification: current.AUTH_EMAIL_VERIFICATION === "required",
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_LINK_TTL_SECONDS,
      password: { hash: hasher.hash, verify: hasher.verify },
      sendResetPassword: ({ user, url }) => registeredMail().sendPasswordReset({ db, clinic, user, url }),
    },
    // A reset link's token is kept as its hash (a database reader cannot use it); rows stored in clear before
    // still match, Better Auth looks both up. The verification link is a signed JWT, not stored.
    verification: { storeIdentifier: { default: "plain", overrides: { "reset-password:": "hashed" } } },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: current.AUTH_EMAIL_VERIFICATION === "required",
      // A verification link only verifies: signing its opener in would let anyone log a victim's browser into
      // the attacker's account by sending them a link (login CSRF).
      autoSignInAfterVerification: false,
      expiresIn: EMAIL_VERIFICATION_LINK_TTL_SECONDS,
      sendVerificationEmail: ({ user, url }) => registeredMail().sendVerification({ db, clinic, user, url }),
    },
    session: {
      expiresIn: 12 * 60 * 60,
      updateAge: 60 * 60,
      // Better Auth's "fresh session" endpoints need a sign-in from the last 10 minutes (password and two-factor
      // changes ask for the current password instead); no cookie cache, so revocation is immediate.
      freshAge: 10 * 60,
      cookieCache: { enabled: false },
    },
    account: {
      accountLinking: { enabled: true, requireLocalEmailVerified: true },
      encryptOAuthTokens: true,
    },
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      customStorage: { consume: (key, rule) => consumeRate(db, `auth:${key}`, rule) },
      customRules: {
        "/callback/*": { window: 60, max: 20 },
        "/sign-in/social": { window: 60, max: 20 },
        "/verify-email": { window: 60 * 10, max: 10 },
        "/reset-password/*": { window: 60 * 10, max: 10 },
      },
    },
    disabledPaths: wrappedPaths,
    // OAuth errors (cancelled, bad state…) land on our callback page, which tells the opener or shows the message.
    onAPIError: { errorURL: `${baseURL}/auth/callback` },
    advanced: {
      // Explicit: Better Auth relaxes these checks by itself when NODE_ENV=test; they must hold everywhere.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], ipv6Subnet: 64 },
      // The `__Host-` prefix comes from authCookiePrefix; Better Auth's own `__Secure-` would be added before it.
      useSecureCookies: false,
      cookiePrefix: authCookiePrefix(current),
      defaultCookieAttributes: {
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: baseURL.startsWith("https://"),
      },
    },
    databaseHooks: {
      user: {
        create: {
          // Every new account is a patient; staff roles are granted by an admin (no self-service staff sign-up).
          after: async (user) => grantRole(db, user.id, "paciente"),
        },
      },
      session: {
        create: {
          before: async (session) => {
            const [owner] = await db
              .select({ deactivatedAt: users.deactivatedAt })
              .from(users)
              .where(eq(users.id, session.userId));
            if (owner?.deactivatedAt) return false;
          },
        },
      },
    },
    logger: {
      level: "warn",
      log: (level, message, ...args) => logger[level]({ args }, `better-auth: ${message}`),
    },
    plugins: [
      twoFactor({
        issuer: clinic.shortName,
        backupCodeOptions: { amount: 10, length: 10 },
        twoFactorCookieMaxAge: TWO_FACTOR_PENDING_SECONDS,
      }),
      oauthSecondFactor({
        staffMustUseTwoFactor: () => staffTwoFactorRequired(current),
        rolesOf: (userId) => activeRoleNames(db, userId),
      }),
      signInStepUp({ db }),
      // Always registered (so its endpoints are typed); without GOOGLE_CLIENT_ID it has no provider and the
      // sign-in page shows no Google button.
      genericOAuth({
        config: google
          ? [
              {
                providerId: GOOGLE_PROVIDER_ID,
                ...(google.endpoints ?? { discoveryUrl: google.discoveryUrl }),
                clientId: google.clientId,
                clientSecret: google.clientSecret,
                scopes: ["openid", "email", "profile"],
                pkce: true,
                // access_type offline and prompt consent: Google returns a refresh token on every consent.
                accessType: "offline",
                prompt: "consent",
                redirectURI: `${baseURL}${AUTH_BASE_PATH}/callback/${GOOGLE_PROVIDER_ID}`,
                mapProfileToUser: (profile) => ({
                  name: String(profile.given_name ?? profile.name ?? profile.email ?? ""),
                  lastName: String(profile.family_name ?? ""),
                }),
              },
            ]
          : [],
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The process's Better Auth instance, built once. Outside lib, use getAuth from features/auth, which wires its e-mails. */
export function authInstance(): Promise<Auth> {
  holder.__clinicaAuth ??= getDb().then((db) => createAuth(db, env()));
  return holder.__clinicaAuth;
}

export function googleSignInEnabled(current: Env = env()): boolean {
  return googleSettings(current) !== null;
}

/** Demo mode's own provider stands in for Google: the button says so (issue 24, item 19). */
export function googleIsDemo(current: Env = env()): boolean {
  return googleSettings(current)?.mode === "demo";
}

export function demoAccountsEnabled(current: Env = env()): boolean {
  return isDemoMode(current);
}
