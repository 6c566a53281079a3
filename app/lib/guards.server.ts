import { data, redirect, type RouterContextProvider } from "react-router";
import { requiresTwoFactor, type RoleName } from "~/domain/roles";
import { sessionUser, type SessionUser } from "./auth/session.server";
import { staffTwoFactorRequired } from "./base/env.server";

export interface GuardArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** A session, else 302 to /auth?redirectTo=<this page> (every loader and action starts here, so none forgets it). */
export async function requireUser(args: GuardArgs): Promise<SessionUser> {
  const user = await sessionUser(args);
  if (user) return user;
  const url = new URL(args.request.url);
  const back = `${url.pathname}${url.search}`;
  throw redirect(`/auth?redirectTo=${encodeURIComponent(back)}`);
}

/**
 * A session with one of `allowed` roles, else a Spanish 403. Staff and clinical readers (asesor, dentista, admin)
 * without two-factor are sent to enrol first when AUTH_STAFF_2FA is required.
 */
export async function requireRole(args: GuardArgs, allowed: readonly RoleName[]): Promise<SessionUser> {
  const user = await requireUser(args);
  const granted = user.roles.filter((role) => (allowed as readonly string[]).includes(role));
  if (granted.length === 0) {
    throw data({ message: "No tienes permiso para ver esta página." }, { status: 403 });
  }
  if (staffTwoFactorRequired() && requiresTwoFactor(granted) && !user.twoFactorEnabled) {
    throw redirect("/cuenta/seguridad?requerido=1");
  }
  return user;
}
