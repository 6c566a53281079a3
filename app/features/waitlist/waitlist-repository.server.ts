import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, notInArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import {
  appointments,
  auditLog,
  dentistScheduleBlocks,
  freedSlots,
  treatmentsCatalog,
  users,
  waitlistEntries,
  waitlistOffers,
} from "~/db/schema";
import { slotFreeingStatuses } from "~/domain/appointment-status";
import type { ScheduleBlock } from "~/domain/slots";
import type { DayPart, FreedSlotReason } from "~/domain/waitlist";

type Reader = Pick<Database, "select">;

const dentist = alias(users, "dentist");
const linked = alias(appointments, "linked");

/** Still holding its time (not cancelled, not released unpaid). */
const holdsTime = (table: typeof appointments) => notInArray(table.status, [...slotFreeingStatuses]);

// ── Entries ─────────────────────────────────────────────────────────────────────────────────────────────────────

export interface NewEntry {
  patientId: string;
  treatmentId: number;
  dentistId: string | null;
  appointmentId: string | null;
  weekdays: number[];
  dayParts: DayPart[];
  earliestDate: string;
  untilDate: string;
}

export async function insertEntry(db: Pick<Database, "insert">, entry: NewEntry) {
  const [row] = await db.insert(waitlistEntries).values(entry).returning({ id: waitlistEntries.id });
  if (!row) throw new Error("insert returned nothing");
  return row.id;
}

const entryColumns = {
  id: waitlistEntries.id,
  patientId: waitlistEntries.patientId,
  status: waitlistEntries.status,
  weekdays: waitlistEntries.weekdays,
  dayParts: waitlistEntries.dayParts,
  earliestDate: waitlistEntries.earliestDate,
  untilDate: waitlistEntries.untilDate,
  createdAt: waitlistEntries.createdAt,
  dentistId: waitlistEntries.dentistId,
  appointmentId: waitlistEntries.appointmentId,
  treatmentName: treatmentsCatalog.name,
  dentistFirstName: dentist.firstName,
  dentistLastName: dentist.lastName,
  dentistTitle: dentist.professionalTitle,
};

/** The patient's entries, newest first. */
export function entriesOfPatient(db: Reader, patientId: string) {
  return db
    .select(entryColumns)
    .from(waitlistEntries)
    .innerJoin(treatmentsCatalog, eq(treatmentsCatalog.id, waitlistEntries.treatmentId))
    .leftJoin(dentist, eq(dentist.id, waitlistEntries.dentistId))
    .where(eq(waitlistEntries.patientId, patientId))
    .orderBy(desc(waitlistEntries.createdAt));
}

export async function countActiveEntries(db: Reader, patientId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.patientId, patientId), eq(waitlistEntries.status, "activa")));
  return row?.count ?? 0;
}

/** Withdraws one of the patient's own active entries; answers whether it did. */
export async function withdrawEntry(
  db: Pick<Database, "update">,
  patientId: string,
  entryId: string,
  now: Date,
) {
  const rows = await db
    .update(waitlistEntries)
    .set({ status: "retirada", statusChangedAt: now, updatedAt: now })
    .where(
      and(
        eq(waitlistEntries.id, entryId),
        eq(waitlistEntries.patientId, patientId),
        eq(waitlistEntries.status, "activa"),
      ),
    )
    .returning({ id: waitlistEntries.id });
  return rows.length > 0;
}

/** Entries whose last date is before the clinic's today become 'vencida'. Answers how many. */
export async function expireEntries(db: Pick<Database, "update">, today: string, now: Date) {
  const rows = await db
    .update(waitlistEntries)
    .set({ status: "vencida", statusChangedAt: now, updatedAt: now })
    .where(and(eq(waitlistEntries.status, "activa"), lt(waitlistEntries.untilDate, today)))
    .returning({ id: waitlistEntries.id });
  return rows.length;
}

/** Active entries whose window holds `date` (the staff's view of a day), oldest first; one dentist's or all. */
export function activeEntriesForDay(db: Reader, date: string, dentistId?: string) {
  const patient = alias(users, "patient");
  return db
    .select({
      ...entryColumns,
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
      patientPhone: patient.phone,
    })
    .from(waitlistEntries)
    .innerJoin(treatmentsCatalog, eq(treatmentsCatalog.id, waitlistEntries.treatmentId))
    .innerJoin(patient, eq(patient.id, waitlistEntries.patientId))
    .leftJoin(dentist, eq(dentist.id, waitlistEntries.dentistId))
    .where(
      and(
        eq(waitlistEntries.status, "activa"),
        lte(waitlistEntries.earliestDate, date),
        gte(waitlistEntries.untilDate, date),
        dentistId
          ? or(isNull(waitlistEntries.dentistId), eq(waitlistEntries.dentistId, dentistId))
          : undefined,
      ),
    )
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id));
}

// ── Freed slots: the job ────────────────────────────────────────────────────────────────────────────────────────

export type FreedSlotRow = typeof freedSlots.$inferSelect;

/**
 * The next open slot whose batch is due, locked for this transaction; a slot another instance is working on is
 * skipped (SKIP LOCKED), so two instances never offer one slot's batch twice.
 */
export async function lockNextDueSlot(tx: Reader, now: Date): Promise<FreedSlotRow | undefined> {
  const [row] = await tx
    .select()
    .from(freedSlots)
    .where(and(eq(freedSlots.status, "abierta"), lte(freedSlots.nextBatchAt, now)))
    .orderBy(asc(freedSlots.nextBatchAt), asc(freedSlots.id))
    .limit(1)
    .for("update", { skipLocked: true });
  return row;
}

/** One slot locked until the transaction ends (a claim waits for the job's batch, and the other way round). */
export async function lockSlot(tx: Reader, slotId: string): Promise<FreedSlotRow | undefined> {
  const [row] = await tx.select().from(freedSlots).where(eq(freedSlots.id, slotId)).for("update");
  return row;
}

export async function closeSlot(db: Pick<Database, "update">, slotId: string, now: Date) {
  await db
    .update(freedSlots)
    .set({ status: "cerrada", closedAt: now })
    .where(and(eq(freedSlots.id, slotId), eq(freedSlots.status, "abierta")));
}

/** After a batch: when the next may go, and one more batch counted when offers went out. */
export async function scheduleNextBatch(
  db: Pick<Database, "update">,
  slotId: string,
  next: Date,
  sent: boolean,
) {
  await db
    .update(freedSlots)
    .set({
      nextBatchAt: next,
      ...(sent ? { batchesSent: sql`${freedSlots.batchesSent} + 1` } : {}),
    })
    .where(eq(freedSlots.id, slotId));
}

/** Whether an appointment of the dentist now holds any part of [startsAt, endsAt). */
export async function dentistBusyDuring(db: Reader, dentistId: string, startsAt: Date, endsAt: Date) {
  const [row] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.dentistId, dentistId),
        holdsTime(appointments),
        lt(appointments.startsAt, endsAt),
        gt(appointments.endsAt, startsAt),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function dentistBlocks(db: Reader, dentistId: string): Promise<ScheduleBlock[]> {
  return db
    .select({
      weekday: dentistScheduleBlocks.weekday,
      startsAt: dentistScheduleBlocks.startsAt,
      endsAt: dentistScheduleBlocks.endsAt,
    })
    .from(dentistScheduleBlocks)
    .where(eq(dentistScheduleBlocks.dentistId, dentistId));
}

/**
 * Active entries that could take the slot, in the order they joined: the cheap conditions in SQL (status, dentist,
 * date window, not its freer, not offered this slot yet, no offer of it to the same patient); the rest is
 * `entryMatchesSlot`.
 */
export function candidateEntries(
  db: Reader,
  slot: FreedSlotRow,
  date: string,
  page: { limit: number; offset: number },
) {
  const patient = alias(users, "patient");
  const offered = db
    .select({ patientId: waitlistOffers.patientId })
    .from(waitlistOffers)
    .where(eq(waitlistOffers.slotId, slot.id));
  return db
    .select({
      id: waitlistEntries.id,
      patientId: waitlistEntries.patientId,
      dentistId: waitlistEntries.dentistId,
      weekdays: waitlistEntries.weekdays,
      dayParts: waitlistEntries.dayParts,
      earliestDate: waitlistEntries.earliestDate,
      untilDate: waitlistEntries.untilDate,
      createdAt: waitlistEntries.createdAt,
      durationMinutes: treatmentsCatalog.durationMinutes,
      currentStartsAt: linked.startsAt,
      linkedStatus: linked.status,
      treatmentName: treatmentsCatalog.name,
      firstName: patient.firstName,
      email: patient.email,
      phone: patient.phone,
      whatsappOptInAt: patient.whatsappOptInAt,
      deactivatedAt: patient.deactivatedAt,
    })
    .from(waitlistEntries)
    .innerJoin(treatmentsCatalog, eq(treatmentsCatalog.id, waitlistEntries.treatmentId))
    .innerJoin(patient, eq(patient.id, waitlistEntries.patientId))
    .leftJoin(linked, eq(linked.id, waitlistEntries.appointmentId))
    .where(
      and(
        eq(waitlistEntries.status, "activa"),
        or(isNull(waitlistEntries.dentistId), eq(waitlistEntries.dentistId, slot.dentistId)),
        lte(waitlistEntries.earliestDate, date),
        gte(waitlistEntries.untilDate, date),
        slot.freedByPatientId ? ne(waitlistEntries.patientId, slot.freedByPatientId) : undefined,
        notInArray(waitlistEntries.patientId, offered),
      ),
    )
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** The live appointments of these patients overlapping [from, to). */
export async function patientsBusy(db: Reader, patientIds: string[], from: Date, to: Date) {
  if (patientIds.length === 0) return [];
  return db
    .select({
      patientId: appointments.patientId,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
    })
    .from(appointments)
    .where(
      and(
        inArray(appointments.patientId, patientIds),
        holdsTime(appointments),
        lt(appointments.startsAt, to),
        gt(appointments.endsAt, from),
      ),
    );
}

export async function dentistAndTreatmentNames(db: Reader, dentistId: string) {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, title: users.professionalTitle })
    .from(users)
    .where(eq(users.id, dentistId));
  return row;
}

export async function insertOffer(db: Pick<Database, "insert">, offer: typeof waitlistOffers.$inferInsert) {
  const [row] = await db
    .insert(waitlistOffers)
    .values(offer)
    .onConflictDoNothing()
    .returning({ id: waitlistOffers.id });
  return row?.id ?? null;
}

// ── Offers: the claim ───────────────────────────────────────────────────────────────────────────────────────────

/** An offer by its token's hash, with what its page shows. */
export async function offerByTokenHash(db: Reader, tokenHash: string) {
  const [row] = await db
    .select({
      id: waitlistOffers.id,
      slotId: waitlistOffers.slotId,
      entryId: waitlistOffers.entryId,
      patientId: waitlistOffers.patientId,
      status: waitlistOffers.status,
      expiresAt: waitlistOffers.expiresAt,
      appointmentId: waitlistOffers.appointmentId,
      slotStatus: freedSlots.status,
      dentistId: freedSlots.dentistId,
      startsAt: freedSlots.startsAt,
      entryStatus: waitlistEntries.status,
      entryDentistId: waitlistEntries.dentistId,
      entryUntilDate: waitlistEntries.untilDate,
      entryAppointmentId: waitlistEntries.appointmentId,
      treatmentName: treatmentsCatalog.name,
      treatmentSlug: treatmentsCatalog.slug,
      treatmentDuration: treatmentsCatalog.durationMinutes,
      dentistFirstName: dentist.firstName,
      dentistLastName: dentist.lastName,
      dentistTitle: dentist.professionalTitle,
    })
    .from(waitlistOffers)
    .innerJoin(freedSlots, eq(freedSlots.id, waitlistOffers.slotId))
    .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
    .innerJoin(treatmentsCatalog, eq(treatmentsCatalog.id, waitlistEntries.treatmentId))
    .innerJoin(dentist, eq(dentist.id, freedSlots.dentistId))
    .where(eq(waitlistOffers.tokenHash, tokenHash));
  return row;
}

export type OfferRow = NonNullable<Awaited<ReturnType<typeof offerByTokenHash>>>;

/** The linked booking of an entry, while it still holds its time. */
export async function liveAppointment(db: Reader, appointmentId: string, patientId: string) {
  const [row] = await db
    .select({ id: appointments.id, startsAt: appointments.startsAt, status: appointments.status })
    .from(appointments)
    .where(
      and(eq(appointments.id, appointmentId), eq(appointments.patientId, patientId), holdsTime(appointments)),
    );
  return row;
}

/** The claim won: the slot taken, this offer 'tomada', the others 'perdida', the entry 'cumplida'. */
export async function recordClaim(
  tx: Pick<Database, "update">,
  claim: { slotId: string; offerId: string; entryId: string; appointmentId: string; now: Date },
) {
  await tx
    .update(freedSlots)
    .set({
      status: "tomada",
      takenAppointmentId: claim.appointmentId,
      takenAt: claim.now,
      closedAt: claim.now,
    })
    .where(eq(freedSlots.id, claim.slotId));
  await tx
    .update(waitlistOffers)
    .set({ status: "tomada", answeredAt: claim.now, appointmentId: claim.appointmentId })
    .where(eq(waitlistOffers.id, claim.offerId));
  await tx
    .update(waitlistOffers)
    .set({ status: "perdida" })
    .where(
      and(
        eq(waitlistOffers.slotId, claim.slotId),
        ne(waitlistOffers.id, claim.offerId),
        eq(waitlistOffers.status, "enviada"),
      ),
    );
  await tx
    .update(waitlistEntries)
    .set({
      status: "cumplida",
      statusChangedAt: claim.now,
      fulfilledAppointmentId: claim.appointmentId,
      updatedAt: claim.now,
    })
    .where(eq(waitlistEntries.id, claim.entryId));
}

/** Offers of slots no longer open that are still 'enviada' become 'perdida'. */
export async function loseOffersOfSlot(db: Pick<Database, "update">, slotId: string) {
  await db
    .update(waitlistOffers)
    .set({ status: "perdida" })
    .where(and(eq(waitlistOffers.slotId, slotId), eq(waitlistOffers.status, "enviada")));
}

// ── Staff ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** Freed slots starting on [from, to), one dentist's or all, with their offers. */
export async function slotsBetween(db: Reader, from: Date, to: Date, dentistId?: string) {
  const slots = await db
    .select({
      id: freedSlots.id,
      dentistId: freedSlots.dentistId,
      startsAt: freedSlots.startsAt,
      endsAt: freedSlots.endsAt,
      reason: freedSlots.reason,
      status: freedSlots.status,
      batchesSent: freedSlots.batchesSent,
      nextBatchAt: freedSlots.nextBatchAt,
      dentistFirstName: dentist.firstName,
      dentistLastName: dentist.lastName,
      dentistTitle: dentist.professionalTitle,
    })
    .from(freedSlots)
    .innerJoin(dentist, eq(dentist.id, freedSlots.dentistId))
    .where(
      and(
        gte(freedSlots.startsAt, from),
        lt(freedSlots.startsAt, to),
        dentistId ? eq(freedSlots.dentistId, dentistId) : undefined,
      ),
    )
    .orderBy(asc(freedSlots.startsAt));
  if (slots.length === 0) return [];
  const patient = alias(users, "patient");
  const offers = await db
    .select({
      slotId: waitlistOffers.slotId,
      status: waitlistOffers.status,
      batch: waitlistOffers.batch,
      sentAt: waitlistOffers.sentAt,
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
    })
    .from(waitlistOffers)
    .innerJoin(patient, eq(patient.id, waitlistOffers.patientId))
    .where(
      inArray(
        waitlistOffers.slotId,
        slots.map((slot) => slot.id),
      ),
    )
    .orderBy(asc(waitlistOffers.sentAt));
  return slots.map((slot) => ({ ...slot, offers: offers.filter((offer) => offer.slotId === slot.id) }));
}

export async function insertManualSlot(
  db: Pick<Database, "insert">,
  slot: { dentistId: string; startsAt: Date; endsAt: Date; createdBy: string; now: Date },
) {
  const [row] = await db
    .insert(freedSlots)
    .values({
      dentistId: slot.dentistId,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      reason: "manual" satisfies FreedSlotReason,
      createdBy: slot.createdBy,
      nextBatchAt: slot.now,
    })
    .onConflictDoNothing()
    .returning({ id: freedSlots.id });
  return row?.id ?? null;
}

/** An open slot is offered right away: its next batch is now. */
export async function offerSlotNow(db: Pick<Database, "update">, slotId: string, now: Date) {
  const rows = await db
    .update(freedSlots)
    .set({ nextBatchAt: now })
    .where(and(eq(freedSlots.id, slotId), eq(freedSlots.status, "abierta")))
    .returning({ id: freedSlots.id });
  return rows.length > 0;
}

export async function openSlotAt(db: Reader, dentistId: string, startsAt: Date) {
  const [row] = await db
    .select({ id: freedSlots.id })
    .from(freedSlots)
    .where(
      and(
        eq(freedSlots.dentistId, dentistId),
        eq(freedSlots.startsAt, startsAt),
        eq(freedSlots.status, "abierta"),
      ),
    );
  return row?.id ?? null;
}

export async function recordStaffAudit(
  db: Pick<Database, "insert">,
  entry: {
    actorId: string;
    actorRoles: readonly string[];
    action: string;
    details: Record<string, unknown>;
    ip: string;
    targetUserId?: string | null;
  },
) {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    actorRoles: entry.actorRoles.join(","),
    action: entry.action,
    targetUserId: entry.targetUserId ?? null,
    details: entry.details,
    ip: entry.ip,
  });
}

/** The entry a staff member offers a slot to by hand. */
export async function entryById(db: Reader, entryId: string) {
  const patient = alias(users, "patient");
  const [row] = await db
    .select({
      id: waitlistEntries.id,
      patientId: waitlistEntries.patientId,
      status: waitlistEntries.status,
      createdAt: waitlistEntries.createdAt,
      treatmentName: treatmentsCatalog.name,
      firstName: patient.firstName,
      email: patient.email,
      phone: patient.phone,
      whatsappOptInAt: patient.whatsappOptInAt,
      deactivatedAt: patient.deactivatedAt,
    })
    .from(waitlistEntries)
    .innerJoin(treatmentsCatalog, eq(treatmentsCatalog.id, waitlistEntries.treatmentId))
    .innerJoin(patient, eq(patient.id, waitlistEntries.patientId))
    .where(eq(waitlistEntries.id, entryId));
  return row;
}

/** Every active entry with its patient's and treatment's names, oldest first (the admin's 'Ofrecer a' list). */
export function activeEntries(db: Reader, limit = 200) {
  const patient = alias(users, "patient");
  return db
    .select({
      id: waitlistEntries.id,
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
      treatmentName: treatmentsCatalog.name,
      untilDate: waitlistEntries.untilDate,
    })
    .from(waitlistEntries)
    .innerJoin(treatmentsCatalog, eq(treatmentsCatalog.id, waitlistEntries.treatmentId))
    .innerJoin(patient, eq(patient.id, waitlistEntries.patientId))
    .where(eq(waitlistEntries.status, "activa"))
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
    .limit(limit);
}
