import type { Route } from "./+types/agenda";
import { getDb } from "~/db/client.server";
import { loadDentistAgenda } from "~/features/dentist/agenda-service.server";
import { DentistAgenda } from "~/features/dentist/components/dentist-agenda";
import { NoShowAgendaSection } from "~/features/no-shows/components/no-show-agenda-section";
import { dentistNoShowToday } from "~/features/no-shows/no-show-service.server";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [{ title: "Mi agenda | Río Clínica" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ["dentista"]);
  const agenda = await loadDentistAgenda(await getDb(), user.id);
  const noShows = await dentistNoShowToday(await getDb(), user.id);
  return { dentistName: user.firstName, agenda, noShows };
}

export default function DentistAgendaPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <DentistAgenda agenda={loaderData.agenda} dentistName={loaderData.dentistName} />
      <NoShowAgendaSection day={loaderData.noShows} />
    </>
  );
}
