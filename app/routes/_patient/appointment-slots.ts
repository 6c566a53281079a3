import type { Route } from "./+types/appointment-slots";
import { requireUser } from "~/lib/guards.server";

// Placeholder while the booking flow is being written.
export async function loader(args: Route.LoaderArgs) {
  await requireUser(args);
  return Response.json({ slots: [] });
}
