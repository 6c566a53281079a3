import type { Route } from "./+types/agenda";
import { getDb } from "~/db/client.server";
import { loadDentistAgenda } from "~/features/dentist/agenda-service.server";
import { DentistAgenda } from "~/features/dentist/components/dentist-agenda";
import { NoShowAgendaSection } from "~/features/no-shows/components/no-show-agenda-section";
import { dentistNoShowDay } from "~/features/no-shows/no-show-service.server";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { dentistAttendanceDate, MARK_WINDOW_DAYS } from "~/domain/no-shows";
import { agendaWindow } from "~/features/dentist/agenda-window";
import { DentistFormsPanel } from "~/features/forms/components/dentist-forms-panel";
import { dentistFormsOverview } from "~/features/forms/form-service.server";
import { DentistWaitlist } from "~/features/waitlist/components/waitlist-days";
import { staffWaitlistDays } from "~/features/waitlist/waitlist-service.server";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [{ title: "Mi agenda | Río Clínica" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ["dentista"]);
  const db = await getDb();
  const now = new Date();
  const today = clinicDate(now);
  const attendanceDate = dentistAttendanceDate(new URL(args.request.url).searchParams.get("fecha"), today);
  const [agenda, noShows, forms] = await Promise.all([
    loadDentistAgenda(db, user.id),
    dentistNoShowDay(db, user.id, attendanceDate, now),
    dentistFormsOverview(db, user.id, agendaWindow(new Date())),
  ]);
  // The waitlist of the same days, for this dentist or any (ADR 040).
  const waitlist = await staffWaitlistDays(db, {
    from: agenda.today,
    days: agenda.days.length,
    dentistId: user.id,
  });
  const attendance = {
    today,
    previous: attendanceDate > addDays(today, -MARK_WINDOW_DAYS) ? addDays(attendanceDate, -1) : null,
  };
  return { dentistName: user.firstName, agenda, noShows, attendance, forms, waitlist };
}

export default function DentistAgendaPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <DentistAgenda agenda={loaderData.agenda} dentistName={loaderData.dentistName} />
      <NoShowAgendaSection day={loaderData.noShows} {...loaderData.attendance} />
      <DentistFormsPanel overview={loaderData.forms} />
      <DentistWaitlist days={loaderData.waitlist} />
    </>
  );
}
