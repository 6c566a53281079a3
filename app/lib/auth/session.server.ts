import { parseCookies } from "better-auth/cookies";
import { eq } from "drizzle-orm";
import { createContext, type RouterContextProvider } from "react-router";
import { getDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { shouldTouchActivity, staffSessionVerdict } from "~/domain/session-policy";
import { activeRoleNames } from "~/features/accounts/role-repository.server";
import { authCookieName, getAuth } from "./auth.server";

export interface SessionUser {
  id: string;
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

/**
 * Looks the session up in the database (anonymous requests cost nothing). Staff sessions that were idle 30
 * minutes or began 12 hours ago are revoked here, before any loader sees them (domain/session-policy.ts).
 */
export async function loadSessionUser(request: Request, now = new Date()): Promise<SessionUser | null> {
  if (!authCookieValue(request, "session_token")) return null;
  const auth = await getAuth();
  const found = await auth.api.getSession({ headers: request.headers });
  if (!found) return null;
  const { user, session } = found;
  if (user.deactivatedAt) return null;
  const db = await getDb();
  const roles = await activeRoleNames(db, user.id);
  const lastActiveAt = session.updatedAt;
  if (staffSessionVerdict({ createdAt: session.createdAt, lastActiveAt }, roles, now) !== "valid") {
    await db.delete(sessions).where(eq(sessions.id, session.id));
    return null;
  }
  if (shouldTouchActivity(lastActiveAt, now)) {
    await db.update(sessions).set({ updatedAt: now }).where(eq(sessions.id, session.id));
  }
  return {
    id: user.id,
    firstName: user.name,
    lastName: user.lastName ?? "",
    email: user.email,
    emailVerified: user.emailVerified,
    twoFactorEnabled: Boolean(user.twoFactorEnabled),
    roles,
  };
}

/** The user of this request, looked up once (by the root middleware) and reused by every loader and action. */
export async function sessionUser(args: { request: Request; context: Readonly<RouterContextProvider> }) {
  const known = args.context.get(sessionUserContext);
  if (known !== "unknown") return known;
  const user = await loadSessionUser(args.request);
  args.context.set(sessionUserContext, user);
  return user;
}

/** Header name: the first name, else the e-mail (spec 000 §2 "Layout shell"). */
export function displayName(user: Pick<SessionUser, "firstName" | "email">): string {
  return user.firstName.trim() || user.email;
}
