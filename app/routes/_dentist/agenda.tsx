import type { Route } from "./+types/agenda";
import { getDb } from "~/db/client.server";
import { loadDentistAgenda } from "~/features/dentist/agenda-service.server";
import { DentistAgenda } from "~/features/dentist/components/dentist-agenda";
import { DentistWaitlist } from "~/features/waitlist/components/waitlist-days";
import { staffWaitlistDays } from "~/features/waitlist/waitlist-service.server";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [{ title: "Mi agenda | Río Clínica" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ["dentista"]);
  const db = await getDb();
  const agenda = await loadDentistAgenda(db, user.id);
  // The waitlist of the same days, for this dentist or any (ADR 040).
  const waitlist = await staffWaitlistDays(db, {
    from: agenda.today,
    days: agenda.days.length,
    dentistId: user.id,
  });
  return { dentistName: user.firstName, agenda, waitlist };
}

export default function DentistAgendaPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <DentistAgenda agenda={loaderData.agenda} dentistName={loaderData.dentistName} />
      <DentistWaitlist days={loaderData.waitlist} />
    </>
  );
}
