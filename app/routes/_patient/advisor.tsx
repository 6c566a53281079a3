import type { Route } from "./+types/advisor";
import { requireUser } from "~/lib/guards.server";

// Placeholder while this page is being written.
export async function loader(args: Route.LoaderArgs) {
  await requireUser(args);
  return null;
}

export default function Placeholder() {
  return null;
}
