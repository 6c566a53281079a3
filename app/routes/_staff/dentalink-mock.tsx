import { data } from "react-router";
import type { Route } from "./+types/dentalink-mock";
import { STAFF_ROLES } from "~/domain/roles";
import { DentalinkMockPage } from "~/features/dentalink-sync/components/dentalink-mock-page";
import { dentalinkSettings, isMockMode } from "~/features/dentalink-sync/dentalink-settings.server";
import { loadMockOverview } from "~/features/dentalink-sync/dentalink-sync-service.server";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Dentalink (modo demostración) | Río Clínica" },
  { name: "robots", content: "noindex" },
];

// 'Ver en Dentalink' in mock mode (ADR 017): staff only, and only while there is no real Dentalink to open.
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, STAFF_ROLES);
  if (!isMockMode(dentalinkSettings())) {
    throw data({ message: "Dentalink está configurado: abre su propio panel." }, { status: 404 });
  }
  return loadMockOverview();
}

export default function DentalinkMockRoute({ loaderData }: Route.ComponentProps) {
  return <DentalinkMockPage data={loaderData} />;
}
