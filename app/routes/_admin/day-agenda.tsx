import { Link } from "react-router";
import type { Route } from "./+types/day-agenda";
import { buttonClass } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { ADMIN_ROLES } from "~/domain/roles";
import { NoShowPanel } from "~/features/no-shows/components/no-show-panel";
import { handleNoShowPost } from "~/features/no-shows/no-show-route.server";
import { noShowDay } from "~/features/no-shows/no-show-service.server";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Agenda del día | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `?fecha=YYYY-MM-DD` (clinic calendar), today by default; anything else is today. */
function dayOf(request: Request, now: Date): string {
  const asked = new URL(request.url).searchParams.get("fecha") ?? "";
  return ISO_DATE.test(asked) && !Number.isNaN(Date.parse(`${asked}T12:00:00Z`)) ? asked : clinicDate(now);
}

/** /admin/agenda: every dentist's appointments of one day, with 'No asistió' and each patient's count (ADR 042). */
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, ADMIN_ROLES);
  const now = new Date();
  const date = dayOf(args.request, now);
  const day = await noShowDay(await getDb(), { date, dentistId: null, actionPath: "/admin/agenda" }, now);
  return { day, previous: addDays(date, -1), next: addDays(date, 1), today: clinicDate(now) };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const form = await readForm(args.request);
  return handleNoShowPost(await getDb(), user, args.request, form, {
    paymentsOn: webpayClient() !== null,
    backTo: "/admin/agenda",
  });
}

export default function AdminDayAgenda({ loaderData }: Route.ComponentProps) {
  const { day, previous, next, today } = loaderData;
  return (
    <>
      <h1 className="text-3xl font-bold">Agenda del día</h1>
      <p className="mt-2 max-w-2xl text-slate-700">
        Las citas de todos los dentistas, con las inasistencias de cada paciente en los últimos 12 meses.
      </p>
      <nav aria-label="Cambiar de día" className="mt-4 flex flex-wrap gap-2">
        <Link to={`?fecha=${previous}`} className={buttonClass("secondary", "px-3 py-1.5 text-sm")}>
          Día anterior
        </Link>
        {day.date !== today && (
          <Link to="?" className={buttonClass("secondary", "px-3 py-1.5 text-sm")}>
            Hoy
          </Link>
        )}
        <Link to={`?fecha=${next}`} className={buttonClass("secondary", "px-3 py-1.5 text-sm")}>
          Día siguiente
        </Link>
      </nav>
      <NoShowPanel day={day} title={day.date === today ? "Citas de hoy" : "Citas del día"} />
    </>
  );
}
