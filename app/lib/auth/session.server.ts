import { createContext, type RouterContextProvider } from "react-router";
import { getDb } from "~/db/client.server";
import { activeRoleNames } from "~/features/accounts/role-repository.server";
import { getAuth, SESSION_COOKIE_PREFIX } from "./auth.server";

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

function hasSessionCookie(request: Request): boolean {
  return (request.headers.get("cookie") ?? "").includes(`${SESSION_COOKIE_PREFIX}.session_token=`);
}

/** Looks the session up in the database (anonymous requests cost nothing). */
export async function loadSessionUser(request: Request): Promise<SessionUser | null> {
  if (!hasSessionCookie(request)) return null;
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const { user } = session;
  if (user.deactivatedAt) return null;
  return {
    id: user.id,
    firstName: user.name,
    lastName: user.lastName ?? "",
    email: user.email,
    emailVerified: user.emailVerified,
    twoFactorEnabled: Boolean(user.twoFactorEnabled),
    roles: await activeRoleNames(await getDb(), user.id),
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
