import { aliasedTable, and, desc, eq, inArray, isNotNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  appointments,
  clinicalRecordBindings,
  dentalinkPatientLinks,
  outbox,
  treatmentsCatalog,
  users,
} from "~/db/schema";
import type { DentalinkPatientLinkSource } from "~/domain/dentalink-patient-link";

/** The outbox kind of a portal booking's write-through to Dentalink (ADR 023). */
export const DENTALINK_APPOINTMENT_KIND = "dentalink-appointment";

const dentists = aliasedTable(users, "dentists");

/**
 * What the write-through needs of one of our appointments: the patient (with what proves who they are at Dentalink:
 * the Mi Ficha binding and the stored link), the dentist's name, the treatment.
 */
export async function appointmentForWriteThrough(db: Database, appointmentId: string) {
  const [row] = await db
    .select({
      id: appointments.id,
      status: appointments.status,
      dentalinkAppointmentId: appointments.dentalinkAppointmentId,
      dentalinkPatientId: appointments.dentalinkPatientId,
      patient: {
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        emailVerified: users.emailVerified,
        phone: users.phone,
      },
      boundPatientId: clinicalRecordBindings.dentalinkPatientId,
      linkedPatientId: dentalinkPatientLinks.dentalinkPatientId,
      linkSource: dentalinkPatientLinks.source,
      dentistId: appointments.dentistId,
      dentistFirstName: dentists.firstName,
      dentistLastName: dentists.lastName,
      dentistTitle: dentists.professionalTitle,
      treatment: treatmentsCatalog.name,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientId))
    .innerJoin(dentists, eq(dentists.id, appointments.dentistId))
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .leftJoin(clinicalRecordBindings, eq(clinicalRecordBindings.userId, users.id))
    .leftJoin(dentalinkPatientLinks, eq(dentalinkPatientLinks.userId, users.id))
    .where(eq(appointments.id, appointmentId));
  if (!row) return null;
  const { linkedPatientId, linkSource, ...rest } = row;
  return {
    ...rest,
    linked: linkedPatientId
      ? { patientId: linkedPatientId, source: linkSource as DentalinkPatientLinkSource }
      : null,
  };
}

/** Of these Dentalink patients, those Mi Ficha bound to an account other than `userId`. */
export async function patientsBoundToOthers(db: Database, userId: string, dentalinkPatientIds: string[]) {
  if (dentalinkPatientIds.length === 0) return new Set<string>();
  const rows = await db
    .select({ dentalinkPatientId: clinicalRecordBindings.dentalinkPatientId })
    .from(clinicalRecordBindings)
    .where(
      and(
        inArray(clinicalRecordBindings.dentalinkPatientId, dentalinkPatientIds),
        ne(clinicalRecordBindings.userId, userId),
      ),
    );
  return new Set(rows.map((row) => row.dentalinkPatientId));
}

/**
 * Stores which Dentalink patient the account is. A binding replaces any earlier link; any other source only fills
 * an empty one, and the link already stored (a concurrent write-through's) is what counts: its id is returned.
 */
export async function storeDentalinkPatientLink(
  db: Database,
  link: { userId: string; dentalinkPatientId: string; source: DentalinkPatientLinkSource },
): Promise<string> {
  if (link.source === "binding") {
    await db
      .insert(dentalinkPatientLinks)
      .values(link)
      .onConflictDoUpdate({
        target: dentalinkPatientLinks.userId,
        set: { dentalinkPatientId: link.dentalinkPatientId, source: link.source, updatedAt: new Date() },
      });
    return link.dentalinkPatientId;
  }
  await db.insert(dentalinkPatientLinks).values(link).onConflictDoNothing();
  const [stored] = await db
    .select({ dentalinkPatientId: dentalinkPatientLinks.dentalinkPatientId })
    .from(dentalinkPatientLinks)
    .where(eq(dentalinkPatientLinks.userId, link.userId));
  return stored?.dentalinkPatientId ?? link.dentalinkPatientId;
}

export async function storeDentalinkIds(
  db: Database,
  appointmentId: string,
  ids: { appointmentId: string; patientId: string },
) {
  await db
    .update(appointments)
    .set({ dentalinkAppointmentId: ids.appointmentId, dentalinkPatientId: ids.patientId })
    .where(eq(appointments.id, appointmentId));
}

/**
 * Whether an earlier write-through of the same appointment is still waiting to be delivered (its booking not yet
 * created at Dentalink): a later change must wait for it, not be applied out of order or dropped.
 */
export async function hasEarlierPendingWriteThrough(db: Database, outboxId: string, appointmentId: string) {
  const [current] = await db.select({ seq: outbox.seq }).from(outbox).where(eq(outbox.id, outboxId));
  if (!current) return false;
  const [earlier] = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, DENTALINK_APPOINTMENT_KIND),
        eq(outbox.status, "pending"),
        ne(outbox.id, outboxId),
        lt(outbox.seq, current.seq),
        sql`${outbox.payload}->>'appointmentId' = ${appointmentId}`,
      ),
    )
    .limit(1);
  return Boolean(earlier);
}

const patients = aliasedTable(users, "patients");

/**
 * The write-throughs staff must see, newest first: those that failed for good, and those waiting for a retry after
 * a failure (a `last_error` on a pending row), with the appointment's patient and dentist.
 */
export async function failedWriteThroughs(db: Database, limit = 20) {
  return db
    .select({
      id: outbox.id,
      status: outbox.status,
      attempts: outbox.attempts,
      nextAttemptAt: outbox.nextAttemptAt,
      payload: outbox.payload,
      lastError: outbox.lastError,
      createdAt: outbox.createdAt,
      patientFirstName: patients.firstName,
      patientLastName: patients.lastName,
      dentistFirstName: dentists.firstName,
      dentistLastName: dentists.lastName,
      dentistTitle: dentists.professionalTitle,
    })
    .from(outbox)
    .leftJoin(appointments, sql`${appointments.id}::text = ${outbox.payload}->>'appointmentId'`)
    .leftJoin(patients, eq(patients.id, appointments.patientId))
    .leftJoin(dentists, eq(dentists.id, appointments.dentistId))
    .where(
      and(
        eq(outbox.kind, DENTALINK_APPOINTMENT_KIND),
        or(eq(outbox.status, "failed"), and(eq(outbox.status, "pending"), isNotNull(outbox.lastError))),
      ),
    )
    .orderBy(desc(outbox.seq))
    .limit(limit);
}
