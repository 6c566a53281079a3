import { data } from "react-router";
import type { Route } from "./+types/auth";
import { getAuth } from "~/features/auth/auth-instance.server";
import { isPublicAuthPath } from "~/lib/auth/auth.server";

/**
 * Better Auth's endpoints that a browser reaches by itself (OAuth callbacks, e-mail verification and reset
 * links); every other one answers 404 here and is reached only through our actions (see auth.server.ts).
 */
async function handle(request: Request) {
  if (!isPublicAuthPath(new URL(request.url).pathname)) throw data(null, { status: 404 });
  return (await getAuth()).handler(request);
}

export async function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export async function action({ request }: Route.ActionArgs) {
  return handle(request);
}
