import type { Database } from "~/db/client.server";
import { effectiveDuration } from "~/domain/appointment-policy";
import { appointmentStatusLabel, treatmentNameOrFallback } from "~/domain/appointment-status";
import { clinicDate, clinicTime } from "~/domain/clinic-time";
import type { AgendaAppointment, DentistAgenda } from "./agenda-dto";
import { findDentistAppointments } from "./agenda-repository.server";
import { agendaWindow, dayHeading } from "./agenda-window";

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
    byDay.get(clinicDate(row.startsAt))?.push({
      id: row.id,
      time: clinicTime(row.startsAt),
      startsAt: row.startsAt.toISOString(),
      patientName: `${row.patientFirstName} ${row.patientLastName}`.trim(),
      treatment: treatmentNameOrFallback(row.treatmentName),
      durationMinutes: effectiveDuration(row.durationMinutes, row.treatmentDurationMinutes),
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
