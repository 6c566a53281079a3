import { Outlet } from "react-router";
import type { Route } from "./+types/patient-layout";
import { requireUser } from "~/lib/guards.server";

/** Every /paciente page needs a session (DESIGN §4); the children check again in their own loaders/actions. */
export async function loader(args: Route.LoaderArgs) {
  await requireUser(args);
  return null;
}

export default function PatientLayout() {
  return <Outlet />;
}
