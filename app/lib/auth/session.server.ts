import type { BetterAuthCookie } from "@better-auth/core";
import { parseCookies } from "better-auth/cookies";
import { createContext, type RouterContextProvider } from "react-router";
import { getDb } from "~/db/client.server";
import {
  deleteSession,
  findSessionById,
  findSessionByToken,
  updateSessionTimes,
  type SessionRow,
} from "~/db/session-lookup.server";
import { isAutomaticRequest, shouldTouchActivity, staffSessionVerdict } from "~/domain/session-policy";
import { authCookieName, authInstance, type Auth } from "./auth.server";
import { readRequestCookie, verifySignedCookie } from "./session-cookie.server";

export interface SessionUser {
  id: string;
  /** The session's own id: what the chat binds a signed-in guest's tokens to (ADR 032). */
  sessionId: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  roles: string[];
}

/** The signed-in user of this request: "unknown" = not looked up yet, null = anonymous. Set by the root middleware. */
export const sessionUserContext = createContext<SessionUser | null | "unknown">("unknown");

/** One of our auth cookies in this request, by its exact name (not a substring a look-alike cookie matches). */
export function authCookieValue(request: Request, name: string): string | undefined {
  return parseCookies(request.headers.get("cookie") ?? "").get(authCookieName(name));
}

interface SessionSettings {
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
  /** Better Auth's own session cookie: its name and the attributes it sets it with. */
  cookie: {
    name: string;
    path: string;
    httpOnly: boolean;
    secure: boolean;
    sameSite: string;
    domain?: string;
  };
}

function cookieOf({ name, attributes }: BetterAuthCookie): SessionSettings["cookie"] {
  return {
    name,
    path: attributes.path ?? "/",
    httpOnly: attributes.httpOnly ?? true,
    secure: attributes.secure ?? false,
    sameSite: attributes.sameSite ?? "lax",
    domain: attributes.domain,
  };
}

// Better Auth's own resolved secret and session lifetimes (the demo may generate its secret at boot), read once.
const settingsByAuth = new WeakMap<Auth, Promise<SessionSettings>>();

function sessionSettings(auth: Auth): Promise<SessionSettings> {
  let settings = settingsByAuth.get(auth);
  if (!settings) {
    settings = auth.$context.then((context) => ({
      secret: context.secret,
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
      cookie: cookieOf(context.authCookies.sessionToken),
    }));
    settingsByAuth.set(auth, settings);
  }
  return settings;
}

/**
 * Looks the session up in the database (anonymous requests cost nothing): what Better Auth's getSession does —
 * signed cookie, session by token, expiry, sliding refresh once `updateAge` has passed — but with the user and
 * the active roles in the same statement, one round trip instead of three. No cache: a deleted session or a
 * deactivated user is refused on the next request. Staff sessions that were idle 30 minutes or began 12 hours
 * ago are revoked here, before any loader sees them (domain/session-policy.ts).
 */
export async function loadSessionUser(request: Request, now = new Date()): Promise<SessionUser | null> {
  return (await lookUpSession(request, now)).user;
}

/**
 * The same look-up for a check the server makes by itself (an open event stream re-checking its session): it ends
 * an expired or idle session but is never activity.
 */
export async function recheckSessionUser(request: Request, now = new Date()): Promise<SessionUser | null> {
  return (await lookUpSession(request, now, true)).user;
}

/**
 * Why a session found in the database no longer signs anyone in: "ended" (expired, or a staff session past its idle
 * or absolute limit: the row goes), "deactivated" (the account was switched off), or null while it is valid.
 */
function sessionEnded(found: SessionRow, now: Date): "ended" | "deactivated" | null {
  if (found.expiresAt.getTime() < now.getTime()) return "ended";
  if (found.deactivatedAt) return "deactivated";
  const verdict = staffSessionVerdict(
    { createdAt: found.createdAt, lastActiveAt: found.updatedAt },
    found.roles,
    now,
  );
  return verdict === "valid" ? null : "ended";
}

/**
 * Whether the session with this id still signs its user in, by the same rules as a request's cookie (for what was
 * issued under a session and must not outlive it: a signed-in guest's chat tokens). Read only, never refreshed.
 */
export async function isLiveSession(sessionId: string, now = new Date()): Promise<boolean> {
  const found = await findSessionById(await getDb(), sessionId);
  return found !== null && sessionEnded(found, now) === null;
}

interface SessionLookup {
  user: SessionUser | null;
  /** Set when the sliding refresh pushed the expiry: the cookie, re-sent with a fresh Max-Age to match. */
  refreshedCookie: string | null;
}

const ANONYMOUS: SessionLookup = { user: null, refreshedCookie: null };

async function lookUpSession(request: Request, now: Date, recheck = false): Promise<SessionLookup> {
  const cookies = request.headers.get("cookie");
  const signed = readRequestCookie(cookies, authCookieName("session_token"));
  if (!signed) return ANONYMOUS;
  const auth = await authInstance();
  const settings = await sessionSettings(auth);
  const token = verifySignedCookie(signed, settings.secret);
  if (!token) return ANONYMOUS;
  const db = await getDb();
  const found = await findSessionByToken(db, token);
  if (!found) return ANONYMOUS;
  const ended = sessionEnded(found, now);
  if (ended) {
    // Better Auth deletes an expired session it comes across; so do we (and a staff session past its limits).
    if (ended === "ended") await deleteSession(db, found.sessionId);
    return ANONYMOUS;
  }
  const lastActiveAt = found.updatedAt;
  // An event stream or a revalidation it triggered is not the person: it neither slides the expiry nor moves the
  // idle clock (else an open inbox would keep a session alive for ever).
  const passive =
    recheck ||
    isAutomaticRequest({ method: request.method, url: request.url, accept: request.headers.get("accept") });
  // Better Auth's sliding window: once `updateAge` has passed since the expiry was last set, push it to
  // now + expiresIn. It skips this for "don't remember me" sessions (a signed dont_remember cookie).
  const refreshDue =
    !passive &&
    found.expiresAt.getTime() - settings.expiresInMs + settings.updateAgeMs <= now.getTime() &&
    !dontRemember(cookies, settings.secret);
  if (refreshDue || (!passive && shouldTouchActivity(lastActiveAt, now))) {
    const change = refreshDue
      ? { expiresAt: new Date(now.getTime() + settings.expiresInMs), updatedAt: now }
      : { updatedAt: now };
    // Revoked between the read and this write (sign-out elsewhere): signed out, as Better Auth answers then.
    if (!(await updateSessionTimes(db, found.sessionId, change))) return ANONYMOUS;
  }
  const user: SessionUser = {
    id: found.userId,
    sessionId: found.sessionId,
    firstName: found.firstName,
    lastName: found.lastName ?? "",
    email: found.email,
    emailVerified: found.emailVerified,
    twoFactorEnabled: Boolean(found.twoFactorEnabled),
    roles: found.roles,
  };
  // Better Auth re-sends the cookie when it slides the expiry; without this the browser would drop it at the
  // Max-Age set at sign-in (12 h) although the session in the database lives on.
  return { user, refreshedCookie: refreshDue ? sessionCookie(settings, signed) : null };
}

function sessionCookie({ cookie, expiresInMs }: SessionSettings, signedValue: string): string {
  const sameSite = cookie.sameSite.toLowerCase();
  const attributes = [
    `${cookie.name}=${encodeURIComponent(signedValue)}`,
    `Max-Age=${Math.floor(expiresInMs / 1000)}`,
    `Path=${cookie.path}`,
    cookie.domain ? `Domain=${cookie.domain}` : null,
    cookie.httpOnly ? "HttpOnly" : null,
    cookie.secure ? "Secure" : null,
    `SameSite=${sameSite.charAt(0).toUpperCase()}${sameSite.slice(1)}`,
  ];
  return attributes.filter(Boolean).join("; ");
}

function dontRemember(cookies: string | null, secret: string): boolean {
  const value = readRequestCookie(cookies, authCookieName("dont_remember"));
  return value ? verifySignedCookie(value, secret) !== null : false;
}

/** The session cookie to re-send with this request's response (sliding refresh), or null. */
export const refreshedSessionCookieContext = createContext<string | null>(null);

/** The user of this request, looked up once (by the root middleware) and reused by every loader and action. */
export async function sessionUser(args: { request: Request; context: Readonly<RouterContextProvider> }) {
  const known = args.context.get(sessionUserContext);
  if (known !== "unknown") return known;
  const { user, refreshedCookie } = await lookUpSession(args.request, new Date());
  args.context.set(sessionUserContext, user);
  if (refreshedCookie) args.context.set(refreshedSessionCookieContext, refreshedCookie);
  return user;
}

/** Header name: the first name, else the e-mail, as the clinic's specification has the header show it. */
export function displayName(user: Pick<SessionUser, "firstName" | "email">): string {
  return user.firstName.trim() || user.email;
}
