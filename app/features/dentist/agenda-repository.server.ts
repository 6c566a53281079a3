import { and, asc, eq, gte, lt } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { appointments, treatmentsCatalog, users } from "~/db/schema";

// A week of one dentist's agenda is a few dozen rows; the cap only guards against runaway data.
const MAX_ROWS = 500;

/** One dentist's appointments starting in [from, to), oldest first, with the patient's name and the treatment. */
export async function findDentistAppointments(db: Database, dentistId: string, from: Date, to: Date) {
  return db
    .select({
      id: appointments.id,
      startsAt: appointments.startsAt,
      durationMinutes: appointments.durationMinutes,
      status: appointments.status,
      patientFirstName: users.firstName,
      patientLastName: users.lastName,
      treatmentName: treatmentsCatalog.name,
      treatmentDurationMinutes: treatmentsCatalog.durationMinutes,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientId))
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .where(
      and(
        eq(appointments.dentistId, dentistId),
        gte(appointments.startsAt, from),
        lt(appointments.startsAt, to),
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id))
    .limit(MAX_ROWS);
}
