import { redirect } from "react-router";
import type { Route } from "./+types/continue";
import { landingPathForRoles, safeRedirectPath } from "~/domain/roles";
import { requireUser } from "~/lib/guards.server";

/** After the Google popup: the page the signed-in person belongs on by role, or a same-origin redirectTo. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const redirectTo = safeRedirectPath(new URL(args.request.url).searchParams.get("redirectTo"));
  throw redirect(redirectTo ?? landingPathForRoles(user.roles));
}
