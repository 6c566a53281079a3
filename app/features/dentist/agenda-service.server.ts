import type { Database } from "~/db/client.server";
import { formatClinicTime } from "~/domain/format";
import type { AgendaAppointment, DentistAgenda } from "./agenda-dto";
import { appointmentStatusLabel, DEFAULT_APPOINTMENT_MINUTES } from "./agenda-options";
import { findDentistAppointments } from "./agenda-repository.server";
import { agendaWindow, calendarDateIn, dayHeading } from "./agenda-window";

/** The signed-in dentist's agenda: today (clinic zone) and the next six days, grouped by day. */
export async function loadDentistAgenda(
  db: Database,
  dentistId: string,
  now = new Date(),
): Promise<DentistAgenda> {
  const window = agendaWindow(now);
  const rows = await findDentistAppointments(db, dentistId, window.start, window.end);

  const byDay = new Map<string, AgendaAppointment[]>(window.days.map((day) => [day, []]));
  for (const row of rows) {
    byDay.get(calendarDateIn(row.startsAt))?.push({
      id: row.id,
      time: formatClinicTime(row.startsAt),
      startsAt: row.startsAt.toISOString(),
      patientName: `${row.patientFirstName} ${row.patientLastName}`.trim(),
      treatment: row.treatmentName ?? "Consulta",
      durationMinutes: row.durationMinutes ?? row.treatmentDurationMinutes ?? DEFAULT_APPOINTMENT_MINUTES,
      status: row.status,
      statusLabel: appointmentStatusLabel(row.status),
    });
  }

  return {
    today: window.today,
    total: rows.length,
    days: window.days.map((date) => ({
      date,
      heading: dayHeading(date),
      isToday: date === window.today,
      appointments: byDay.get(date) ?? [],
    })),
  };
}
