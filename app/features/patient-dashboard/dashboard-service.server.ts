import type { Database } from "~/db/client.server";
import { treatmentNameOrFallback } from "~/domain/appointment-status";
import { clinicDate, clinicTime, startOfClinicDay } from "~/domain/clinic-time";
import { formatDateWithWeekday } from "~/domain/format";
import { patientAppointmentSummary } from "~/features/appointments/appointment-service.server";
import { pendingFormsCount } from "~/features/forms/form-service.server";
import { profileCompletenessOf } from "~/features/profile/profile-service.server";
import type { PatientDashboardDto } from "./dashboard-dto";
import { dentistDisplayName } from "~/domain/dentist-name";

/** What /paciente shows, always for the session's own id. */
export async function patientDashboard(
  db: Database,
  userId: string,
  now = new Date(),
): Promise<PatientDashboardDto> {
  const startOfToday = startOfClinicDay(clinicDate(now));
  const [{ upcoming, history, next }, completeness, pendingForms] = await Promise.all([
    patientAppointmentSummary(db, userId, startOfToday, now),
    profileCompletenessOf(db, userId),
    pendingFormsCount(db, userId, now),
  ]);
  return {
    nextAppointment: next
      ? {
          id: next.id,
          date: formatDateWithWeekday(clinicDate(next.startsAt)),
          time: clinicTime(next.startsAt),
          treatment: treatmentNameOrFallback(next.treatmentName),
          dentist: dentistDisplayName({
            firstName: next.dentistFirstName,
            lastName: next.dentistLastName,
            title: next.dentistTitle,
          }),
          status: next.status,
        }
      : null,
    counts: { upcoming, history },
    completeness,
    pendingForms,
  };
}
