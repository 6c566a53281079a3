import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import type { NoShowDay } from "../no-show-dto";
import { NoShowPanel } from "./no-show-panel";

/**
 * The dentist agenda's attendance section, in the page's column (ADR 042): today by default; 'Día anterior' goes
 * back through the days whose visits may still be marked (`?fecha=`), 'Hoy' returns.
 */
export function NoShowAgendaSection({
  day,
  today,
  previous,
}: {
  day: NoShowDay;
  today: string;
  previous: string | null;
}) {
  const isToday = day.date === today;
  return (
    <div className="mx-auto max-w-4xl px-4 pb-10">
      <NoShowPanel day={day} title={isToday ? "Asistencia de hoy" : "Asistencia del día"} />
      <nav aria-label="Cambiar el día de asistencia" className="mt-3 flex flex-wrap gap-2">
        {previous && (
          <Link
            to={`?fecha=${previous}`}
            preventScrollReset
            className={buttonClass("secondary", "px-3 py-1.5 text-sm")}
          >
            Día anterior
          </Link>
        )}
        {!isToday && (
          <Link to="?" preventScrollReset className={buttonClass("secondary", "px-3 py-1.5 text-sm")}>
            Hoy
          </Link>
        )}
      </nav>
    </div>
  );
}
