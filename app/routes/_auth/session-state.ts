import type { Route } from "./+types/session-state";
import { sessionUser } from "~/lib/auth/session.server";

/** The popup's final check before a closed popup counts as cancelled: is there a session? No user data is returned. */
export async function loader(args: Route.LoaderArgs) {
  const user = await sessionUser(args);
  return Response.json({ signedIn: Boolean(user) }, { headers: { "Cache-Control": "no-store" } });
}
