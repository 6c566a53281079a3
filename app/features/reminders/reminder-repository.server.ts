import { randomUUID } from "node:crypto";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import {
  appointmentActionTokens,
  appointmentReminders,
  appointments,
  auditLog,
  callbackRequests,
  formAssignments,
  treatmentsCatalog,
  users,
} from "~/db/schema";
import type { AppointmentLinkAction } from "~/domain/appointment-links";
import { remindedStatuses } from "~/domain/reminder-schedule";
import type { ReminderStep } from "~/domain/reminder-sequence";

type Select = Pick<Database, "select">;
type Insert = Pick<Database, "insert">;

/**
 * Appointments whose reminder sequence may have a step to handle: scheduled or confirmed, starting within
 * (`from`, `to`], of an active patient who agreed to WhatsApp messages and has a phone, with fewer handled steps (sent or skipped) among `steps` for
 * their current start than `steps` has. Each with the steps already handled. Ordered by start and id, from after
 * the cursor, so that a pass can page through all of them.
 */
export async function sequenceCandidates(
  db: Select,
  window: { from: Date; to: Date },
  steps: readonly ReminderStep[],
  limit: number,
  after?: { startsAt: Date; id: string },
) {
  const handled = sql<
    string[]
  >`coalesce(array_agg(${appointmentReminders.step}) filter (where ${appointmentReminders.step} is not null), '{}')`;
  return (
    db
      .select({ id: appointments.id, status: appointments.status, startsAt: appointments.startsAt, handled })
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
          gt(appointments.startsAt, window.from),
          lte(appointments.startsAt, window.to),
          isNotNull(users.whatsappOptInAt),
          isNotNull(users.phone),
          isNull(users.deactivatedAt),
          after
            ? or(
                gt(appointments.startsAt, after.startsAt),
                and(eq(appointments.startsAt, after.startsAt), gt(appointments.id, after.id)),
              )
            : undefined,
        ),
      )
      .groupBy(appointments.id)
      // Only the steps the clinic sends now count: a step switched off after it was handled leaves the others to do.
      .having(
        sql`count(${appointmentReminders.step}) filter (where ${inArray(appointmentReminders.step, [...steps])}) < ${steps.length}`,
      )
      .orderBy(asc(appointments.startsAt), asc(appointments.id))
      .limit(limit)
  );
}

/** Whether the appointment has forms still to fill (`form_assignments` in 'pendiente'). */
export async function hasPendingForms(db: Select, appointmentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: formAssignments.id })
    .from(formAssignments)
    .where(and(eq(formAssignments.appointmentId, appointmentId), eq(formAssignments.status, "pendiente")))
    .limit(1);
  return row !== undefined;
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

/**
 * Claims one step of the reminder of this appointment at this start (with why it is skipped, when it is); false when
 * it was already claimed.
 */
export async function claimReminderStep(
  db: Insert,
  claim: { appointmentId: string; startsAt: Date; step: ReminderStep; skipped?: string | null; at: Date },
): Promise<boolean> {
  const rows = await db
    .insert(appointmentReminders)
    .values({
      appointmentId: claim.appointmentId,
      startsAt: claim.startsAt,
      step: claim.step,
      skipped: claim.skipped ?? null,
      createdAt: claim.at,
    })
    .onConflictDoNothing()
    .returning({ appointmentId: appointmentReminders.appointmentId });
  return rows.length > 0;
}

/** Records a claimed step as skipped (no message: no consent, not a WhatsApp number…). */
export async function setReminderStepSkipped(
  db: Pick<Database, "update">,
  key: { appointmentId: string; startsAt: Date; step: ReminderStep },
  skipped: string,
) {
  await db.update(appointmentReminders).set({ skipped }).where(stepKey(key));
}

export async function setReminderStepMessage(
  db: Pick<Database, "update">,
  key: { appointmentId: string; startsAt: Date; step: ReminderStep },
  messageId: string,
) {
  await db.update(appointmentReminders).set({ messageId }).where(stepKey(key));
}

function stepKey(key: { appointmentId: string; startsAt: Date; step: ReminderStep }) {
  return and(
    eq(appointmentReminders.appointmentId, key.appointmentId),
    eq(appointmentReminders.startsAt, key.startsAt),
    eq(appointmentReminders.step, key.step),
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
      dentistTitle: dentist.professionalTitle,
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

/**
 * A patient's "Necesito hablar con alguien" from a reminder (issue 23): a callback request like the public form's,
 * marked as coming from the reminder, with the patient's account and the appointment, in the list the asesores work
 * from. One per link (the link's token is its submission id's source: the caller marks the token used first).
 */
export async function insertReminderCallback(
  db: Select & Insert,
  entry: { patientId: string; appointmentId: string; reason: string; at: Date },
) {
  const [patient] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, phone: users.phone, email: users.email })
    .from(users)
    .where(eq(users.id, entry.patientId));
  const [row] = await db
    .insert(callbackRequests)
    .values({
      submissionId: randomUUID(),
      name: [patient?.firstName, patient?.lastName].filter(Boolean).join(" ") || "Paciente",
      phone: patient?.phone ?? "",
      email: patient?.email ?? null,
      preferredTime: "cualquiera",
      reason: entry.reason,
      source: "recordatorio",
      userId: entry.patientId,
      appointmentId: entry.appointmentId,
      createdAt: entry.at,
      updatedAt: entry.at,
    })
    .returning({ id: callbackRequests.id });
  return row!;
}
