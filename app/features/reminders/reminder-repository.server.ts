import { and, asc, eq, gt, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import {
  appointmentActionTokens,
  appointmentReminders,
  appointments,
  auditLog,
  treatmentsCatalog,
  users,
} from "~/db/schema";
import type { AppointmentLinkAction } from "~/domain/appointment-links";
import { remindedStatuses } from "~/domain/reminder-schedule";

type Select = Pick<Database, "select">;
type Insert = Pick<Database, "insert">;

/**
 * Appointments that may be due for a reminder: scheduled or confirmed, starting within (`from`, `to`], of a patient
 * who agreed to WhatsApp messages and has a phone, and not yet reminded for their current start. Earliest first, so
 * that the due ones come before those whose day-before time has not come yet.
 */
export async function reminderCandidates(db: Select, from: Date, to: Date, limit: number) {
  return db
    .select({ id: appointments.id, status: appointments.status, startsAt: appointments.startsAt })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientId))
    .leftJoin(
      appointmentReminders,
      and(
        eq(appointmentReminders.appointmentId, appointments.id),
        eq(appointmentReminders.startsAt, appointments.startsAt),
      ),
    )
    .where(
      and(
        inArray(appointments.status, [...remindedStatuses]),
        gt(appointments.startsAt, from),
        lte(appointments.startsAt, to),
        isNotNull(users.whatsappOptInAt),
        isNotNull(users.phone),
        isNull(users.deactivatedAt),
        isNull(appointmentReminders.appointmentId),
      ),
    )
    .orderBy(asc(appointments.startsAt))
    .limit(limit);
}

/**
 * The appointment and its patient, with the appointment's row locked until the transaction ends: two workers that
 * picked the same appointment take turns here, and the second then finds the first one's reminder row.
 */
export async function lockReminderTarget(db: Select, appointmentId: string) {
  const [row] = await db
    .select({
      id: appointments.id,
      status: appointments.status,
      startsAt: appointments.startsAt,
      patientId: appointments.patientId,
      firstName: users.firstName,
      phone: users.phone,
      whatsappOptInAt: users.whatsappOptInAt,
      deactivatedAt: users.deactivatedAt,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientId))
    .where(eq(appointments.id, appointmentId))
    .for("update", { of: appointments });
  return row;
}

/** Claims the reminder of this appointment at this start; false when it was already claimed. */
export async function claimReminder(db: Insert, appointmentId: string, startsAt: Date): Promise<boolean> {
  const rows = await db
    .insert(appointmentReminders)
    .values({ appointmentId, startsAt })
    .onConflictDoNothing()
    .returning({ appointmentId: appointmentReminders.appointmentId });
  return rows.length > 0;
}

export async function setReminderMessage(
  db: Pick<Database, "update">,
  appointmentId: string,
  startsAt: Date,
  messageId: string,
) {
  await db
    .update(appointmentReminders)
    .set({ messageId })
    .where(
      and(eq(appointmentReminders.appointmentId, appointmentId), eq(appointmentReminders.startsAt, startsAt)),
    );
}

export async function insertActionTokens(
  db: Insert,
  rows: { appointmentId: string; action: AppointmentLinkAction; tokenHash: string; expiresAt: Date }[],
) {
  await db.insert(appointmentActionTokens).values(rows);
}

const dentist = alias(users, "dentist");

/**
 * A link's token with its appointment (treatment, dentist) by the token's hash and action; with `lock`, the token's
 * row is locked until the transaction ends, so two uses of one link take turns and the second sees the first.
 */
export async function findActionToken(
  db: Select,
  tokenHash: string,
  action: AppointmentLinkAction,
  options: { lock?: boolean } = {},
) {
  const query = db
    .select({
      tokenId: appointmentActionTokens.id,
      action: appointmentActionTokens.action,
      expiresAt: appointmentActionTokens.expiresAt,
      usedAt: appointmentActionTokens.usedAt,
      appointmentId: appointments.id,
      patientId: appointments.patientId,
      status: appointments.status,
      startsAt: appointments.startsAt,
      treatmentName: treatmentsCatalog.name,
      treatmentPrice: treatmentsCatalog.basePrice,
      dentistFirstName: dentist.firstName,
      dentistLastName: dentist.lastName,
    })
    .from(appointmentActionTokens)
    .innerJoin(appointments, eq(appointments.id, appointmentActionTokens.appointmentId))
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .innerJoin(dentist, eq(dentist.id, appointments.dentistId))
    .where(and(eq(appointmentActionTokens.tokenHash, tokenHash), eq(appointmentActionTokens.action, action)))
    .limit(1);
  const [row] = await (options.lock ? query.for("update", { of: appointmentActionTokens }) : query);
  return row;
}

export type ActionTokenRow = NonNullable<Awaited<ReturnType<typeof findActionToken>>>;

/** Marks a token used, only if it still is not; answers whether this call used it. */
export async function markTokenUsed(db: Pick<Database, "update">, tokenId: string, at: Date) {
  const rows = await db
    .update(appointmentActionTokens)
    .set({ usedAt: at })
    .where(and(eq(appointmentActionTokens.id, tokenId), isNull(appointmentActionTokens.usedAt)))
    .returning({ id: appointmentActionTokens.id });
  return rows.length > 0;
}

/** The audit row of a change made through a reminder's link: no signed-in actor, the patient as the target. */
export async function recordLinkAudit(
  db: Insert,
  entry: { action: string; patientId: string; details: Record<string, unknown>; ip: string; at: Date },
) {
  await db.insert(auditLog).values({
    actorId: null,
    actorRoles: "",
    action: entry.action,
    targetUserId: entry.patientId,
    details: entry.details,
    ip: entry.ip,
    createdAt: entry.at,
  });
}
