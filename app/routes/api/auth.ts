import type { Route } from "./+types/auth";
import { getAuth } from "~/lib/auth/auth.server";

/** Better Auth's own endpoints (OAuth callbacks, e-mail verification links, session); see auth.server.ts. */
export async function loader({ request }: Route.LoaderArgs) {
  return (await getAuth()).handler(request);
}

export async function action({ request }: Route.ActionArgs) {
  return (await getAuth()).handler(request);
}
