import { and, asc, count, eq, gt, gte, inArray, lt, ne, notInArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { activeGrantOf, grantedRole } from "~/db/accounts.server";
import type { Database } from "~/db/client.server";
import { hotStatement } from "~/db/pglite-statements.server";
import { appointments, dentistScheduleBlocks, roles, treatmentsCatalog, userRoles, users } from "~/db/schema";
import {
  closedAppointmentStatuses,
  liveAppointmentStatuses,
  slotFreeingStatuses,
} from "~/domain/appointment-status";
import type { BusyInterval, ScheduleBlock } from "~/domain/slots";

const dentist = alias(users, "dentist");

/** Everything a patient's appointment card shows (and nothing else: no whole row reaches the page). */
const cardColumns = {
  id: appointments.id,
  startsAt: appointments.startsAt,
  endsAt: appointments.endsAt,
  durationMinutes: appointments.durationMinutes,
  status: appointments.status,
  notes: appointments.notes,
  cancellationFee: appointments.cancellationFee,
  agreedPrice: appointments.agreedPrice,
  paymentHoldExpiresAt: appointments.paymentHoldExpiresAt,
  treatmentSlug: treatmentsCatalog.slug,
  treatmentName: treatmentsCatalog.name,
  treatmentDescription: treatmentsCatalog.description,
  treatmentDuration: treatmentsCatalog.durationMinutes,
  treatmentPrice: treatmentsCatalog.basePrice,
  dentistId: appointments.dentistId,
  dentistFirstName: dentist.firstName,
  dentistLastName: dentist.lastName,
  dentistTitle: dentist.professionalTitle,
  dentistPhone: dentist.phone,
};

/** Appointments with their dentist and their treatment (left join: a treatment may leave the catalogue). */
function cardRows(db: Pick<Database, "select">) {
  return db
    .select(cardColumns)
    .from(appointments)
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .innerJoin(dentist, eq(dentist.id, appointments.dentistId));
}

export type AppointmentCardRow = Awaited<ReturnType<typeof patientAppointments>>["upcoming"][number];

/**
 * A patient's appointments split at the start of the clinic's today (not UTC's): upcoming by date and time
 * ascending, history descending. Always selected by the session's patient id. Without the treatments' descriptions
 * (long texts, the same on many cards): the page takes them from its treatment list.
 */
/** A card's columns but the treatment's description, which Mis Citas takes from its cached treatment list. */
const { treatmentDescription: _description, ...listColumns } = cardColumns;

/** Every appointment of a patient as cards, by start time (a hot statement: Mis Citas reads it on every visit). */
const patientCardRows = hotStatement("patient_appointment_cards", (db) =>
  db
    .select(listColumns)
    .from(appointments)
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .innerJoin(dentist, eq(dentist.id, appointments.dentistId))
    .where(eq(appointments.patientId, sql.placeholder("patientId")))
    .orderBy(asc(appointments.startsAt)),
);

export async function patientAppointments(db: Database, patientId: string, startOfToday: Date) {
  // One indexed query (patient_id, starts_at), split here: the embedded database runs queries one at a time.
  const rows = await patientCardRows(db, { patientId });
  const firstUpcoming = rows.findIndex((row) => row.startsAt.getTime() >= startOfToday.getTime());
  const split = firstUpcoming === -1 ? rows.length : firstUpcoming;
  return { upcoming: rows.slice(split), history: rows.slice(0, split).toReversed() };
}

/** What the dashboard's card of the next appointment shows (and nothing else). */
const nextCardColumns = {
  id: appointments.id,
  startsAt: appointments.startsAt,
  status: appointments.status,
  treatmentName: treatmentsCatalog.name,
  dentistFirstName: dentist.firstName,
  dentistLastName: dentist.lastName,
  dentistTitle: dentist.professionalTitle,
};

export type NextAppointmentRow = {
  id: string;
  startsAt: Date;
  status: AppointmentCardRow["status"];
  treatmentName: string | null;
  dentistFirstName: string;
  dentistLastName: string;
  dentistTitle: string | null;
};

/*
 * One statement (each query is a round trip through the embedded database): the counts always yield one row, and
 * the next appointment is joined to it by a scalar subquery, so a patient with none still gets the counts. A hot
 * statement (ADR 053): the dashboard reads it on every visit.
 */
const appointmentSummary = hotStatement("patient_appointment_summary", (db) => {
  const patientId = sql.placeholder("patientId");
  const startOfToday = sql.placeholder("startOfToday");
  const counts = db
    .select({
      upcoming: sql<number>`(count(*) filter (where ${appointments.startsAt} >= ${startOfToday}))::int`.as(
        "upcoming",
      ),
      history: sql<number>`(count(*) filter (where ${appointments.startsAt} < ${startOfToday}))::int`.as(
        "history",
      ),
    })
    .from(appointments)
    .where(eq(appointments.patientId, patientId))
    .as("counts");
  const nextId = db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.patientId, patientId),
        gte(appointments.startsAt, startOfToday),
        gt(appointments.endsAt, sql.placeholder("now")),
        inArray(appointments.status, [...liveAppointmentStatuses]),
      ),
    )
    .orderBy(asc(appointments.startsAt))
    .limit(1);
  return db
    .select({ upcoming: counts.upcoming, history: counts.history, card: nextCardColumns })
    .from(counts)
    .leftJoin(appointments, eq(appointments.id, sql`(${nextId})`))
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .leftJoin(dentist, eq(dentist.id, appointments.dentistId));
});

/**
 * What the dashboard needs without loading every appointment: how many are upcoming (from today, clinic time) and
 * past, and the next one still live whose end is after `now`.
 */
export async function patientAppointmentSummary(
  db: Database,
  patientId: string,
  startOfToday: Date,
  now: Date,
): Promise<{ upcoming: number; history: number; next: NextAppointmentRow | undefined }> {
  const [row] = await appointmentSummary(db, { patientId, startOfToday, now });
  // With an appointment row, its dentist is there too (a non-null foreign key): the card is complete.
  const next = row?.card?.id == null ? undefined : (row.card as NextAppointmentRow);
  return { upcoming: row?.upcoming ?? 0, history: row?.history ?? 0, next };
}

/** One appointment of this patient, or undefined (a foreign id looks exactly like a missing one). */
export async function patientAppointment(
  db: Pick<Database, "select">,
  patientId: string,
  appointmentId: string,
) {
  const [row] = await cardRows(db)
    .where(and(eq(appointments.id, appointmentId), eq(appointments.patientId, patientId)))
    .limit(1);
  return row;
}

export async function listTreatments(db: Database) {
  return db
    .select({
      id: treatmentsCatalog.id,
      slug: treatmentsCatalog.slug,
      name: treatmentsCatalog.name,
      description: treatmentsCatalog.description,
      durationMinutes: treatmentsCatalog.durationMinutes,
      basePrice: treatmentsCatalog.basePrice,
    })
    .from(treatmentsCatalog)
    .orderBy(asc(treatmentsCatalog.id));
}

export async function treatmentBySlug(db: Pick<Database, "select">, slug: string) {
  const [row] = await db.select().from(treatmentsCatalog).where(eq(treatmentsCatalog.slug, slug)).limit(1);
  return row;
}

/** Active, not deactivated users with the dentista role. */
export async function listDentists(db: Pick<Database, "select">) {
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      title: users.professionalTitle,
      phone: users.phone,
    })
    .from(users)
    .innerJoin(userRoles, activeGrantOf(eq(userRoles.userId, users.id)))
    .innerJoin(roles, and(grantedRole, eq(roles.name, "dentista")))
    .where(sql`${users.deactivatedAt} is null`)
    .orderBy(asc(users.lastName), asc(users.firstName));
}

export async function scheduleBlocks(db: Pick<Database, "select">, dentistIds: string[]) {
  if (dentistIds.length === 0) return new Map<string, ScheduleBlock[]>();
  const rows = await db
    .select({
      dentistId: dentistScheduleBlocks.dentistId,
      weekday: dentistScheduleBlocks.weekday,
      startsAt: dentistScheduleBlocks.startsAt,
      endsAt: dentistScheduleBlocks.endsAt,
    })
    .from(dentistScheduleBlocks)
    .where(inArray(dentistScheduleBlocks.dentistId, dentistIds));
  const byDentist = new Map<string, ScheduleBlock[]>();
  for (const row of rows) {
    const list = byDentist.get(row.dentistId) ?? [];
    list.push({ weekday: row.weekday, startsAt: row.startsAt, endsAt: row.endsAt });
    byDentist.set(row.dentistId, list);
  }
  return byDentist;
}

/**
 * Still taking its slot (not cancelled, not released unpaid) and overlapping [from, to); the appointment being moved
 * does not count against itself.
 */
function overlapping(from: Date, to: Date, excludeAppointmentId?: string) {
  return and(
    notInArray(appointments.status, [...slotFreeingStatuses]),
    lt(appointments.startsAt, to),
    gt(appointments.endsAt, from),
    excludeAppointmentId ? ne(appointments.id, excludeAppointmentId) : undefined,
  );
}

/** Non-cancelled appointments of the dentists overlapping [from, to). */
export async function busyIntervals(
  db: Pick<Database, "select">,
  dentistIds: string[],
  from: Date,
  to: Date,
  excludeAppointmentId?: string,
): Promise<Map<string, BusyInterval[]>> {
  const result = new Map<string, BusyInterval[]>(dentistIds.map((id) => [id, []]));
  if (dentistIds.length === 0) return result;
  const rows = await db
    .select({
      dentistId: appointments.dentistId,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
    })
    .from(appointments)
    .where(and(inArray(appointments.dentistId, dentistIds), overlapping(from, to, excludeAppointmentId)));
  for (const row of rows) result.get(row.dentistId)?.push({ startsAt: row.startsAt, endsAt: row.endsAt });
  return result;
}

/** The patient's own live appointments overlapping [from, to), with any dentist. */
export async function patientBusyIntervals(
  db: Pick<Database, "select">,
  patientId: string,
  from: Date,
  to: Date,
): Promise<BusyInterval[]> {
  return db
    .select({ startsAt: appointments.startsAt, endsAt: appointments.endsAt })
    .from(appointments)
    .where(and(eq(appointments.patientId, patientId), overlapping(from, to)));
}

/** Does the patient already have a live appointment overlapping [from, to)? */
export async function patientHasOverlap(
  db: Pick<Database, "select">,
  patientId: string,
  from: Date,
  to: Date,
  excludeAppointmentId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.patientId, patientId), overlapping(from, to, excludeAppointmentId)))
    .limit(1);
  return Boolean(row);
}

/**
 * Locks the patient's row until the transaction ends, so one patient's bookings are decided one at a time and
 * simultaneous requests cannot overshoot the cap. NO KEY UPDATE leaves the foreign-key checks of other
 * appointments (which take KEY SHARE on the same row) unblocked.
 */
export async function lockPatientForBooking(db: Pick<Database, "select">, patientId: string) {
  await db.select({ id: users.id }).from(users).where(eq(users.id, patientId)).for("no key update");
}

export async function patientEmailVerified(
  db: Pick<Database, "select">,
  patientId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, patientId))
    .limit(1);
  return row?.emailVerified ?? false;
}

/** The patient's live appointments that have not started yet. */
export async function countUpcomingAppointments(
  db: Pick<Database, "select">,
  patientId: string,
  now: Date,
): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(appointments)
    .where(
      and(
        eq(appointments.patientId, patientId),
        notInArray(appointments.status, closedAppointmentStatuses),
        gt(appointments.startsAt, now),
      ),
    );
  return row?.total ?? 0;
}

/** Who an appointment's WhatsApp messages name and reach: the patient (with their consent) and the dentist. */
export async function appointmentParties(db: Pick<Database, "select">, patientId: string, dentistId: string) {
  const [patient] = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      phone: users.phone,
      email: users.email,
      whatsappOptInAt: users.whatsappOptInAt,
    })
    .from(users)
    .where(eq(users.id, patientId))
    .limit(1);
  const [dentistRow] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, title: users.professionalTitle })
    .from(users)
    .where(eq(users.id, dentistId))
    .limit(1);
  return { patient, dentist: dentistRow };
}
