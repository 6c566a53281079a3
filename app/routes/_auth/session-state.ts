import type { Route } from "./+types/session-state";
import { sessionUser } from "~/lib/auth/session.server";

/** The popup's final check (spec 000 §4): is there a session now? No user data is returned. */
export async function loader(args: Route.LoaderArgs) {
  const user = await sessionUser(args);
  return Response.json({ signedIn: Boolean(user) }, { headers: { "Cache-Control": "no-store" } });
}
