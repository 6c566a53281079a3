import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, dentalinkSyncs, leadHistory, leads, whatsAppMessages } from "~/db/schema";
import type { LeadStatus, LostReason } from "~/domain/lead-pipeline";

type Writer = Pick<Database, "insert" | "update" | "select">;

export interface StaffActor {
  id: string;
  roles: readonly string[];
  ip: string;
}

export async function writeAudit(
  tx: Pick<Database, "insert">,
  actor: StaffActor,
  action: string,
  details: Record<string, unknown>,
  at: Date,
) {
  await tx.insert(auditLog).values({
    actorId: actor.id,
    actorRoles: actor.roles.join(","),
    action,
    details,
    ip: actor.ip,
    createdAt: at,
  });
}

export type NewHistoryRow = typeof leadHistory.$inferInsert;

export async function writeHistory(tx: Pick<Database, "insert">, row: NewHistoryRow): Promise<string> {
  const [inserted] = await tx.insert(leadHistory).values(row).returning({ id: leadHistory.id });
  if (!inserted) throw new Error("history row not inserted");
  return inserted.id;
}

export interface StatusWrite {
  leadId: string;
  /** The status the staff member saw: the update applies only if the lead still has it (optimistic concurrency). */
  from: LeadStatus;
  to: LeadStatus;
  reason: LostReason | null;
  stampsContact: boolean;
  at: Date;
}

/** Applies a checked status change if the lead still has `from`; false when it does not (or does not exist). */
export async function updateStatusIf(tx: Writer, write: StatusWrite): Promise<boolean> {
  const contact = write.stampsContact
    ? {
        lastContactAt: write.at,
        firstContactAt: sql`coalesce(${leads.firstContactAt}, ${write.at.toISOString()}::timestamptz)`,
      }
    : {};
  const rows = await tx
    .update(leads)
    .set({
      status: write.to,
      lostReason: write.to === "lost" ? write.reason : null,
      updatedAt: write.at,
      ...contact,
    })
    .where(and(eq(leads.id, write.leadId), eq(leads.status, write.from)))
    .returning({ id: leads.id });
  return rows.length > 0;
}

/** The lead's status now (locked for the rest of the transaction), or null when there is no such lead. */
export async function lockLeadStatus(tx: Writer, leadId: string): Promise<LeadStatus | null> {
  const [row] = await tx
    .select({ status: leads.status })
    .from(leads)
    .where(eq(leads.id, leadId))
    .for("update");
  return (row?.status as LeadStatus | undefined) ?? null;
}

/** The lead's assignee (`assignedTo`, null for nobody), locked for the rest of the transaction; null: no such lead. */
export async function lockLeadAssignee(
  tx: Writer,
  leadId: string,
): Promise<{ assignedTo: string | null } | null> {
  const [row] = await tx
    .select({ assignedTo: leads.assignedTo })
    .from(leads)
    .where(eq(leads.id, leadId))
    .for("update");
  return row ?? null;
}

export async function leadAssignee(
  db: Pick<Database, "select">,
  leadId: string,
): Promise<{ assignedTo: string | null } | null> {
  const [row] = await db.select({ assignedTo: leads.assignedTo }).from(leads).where(eq(leads.id, leadId));
  return row ?? null;
}

export async function currentStatus(
  db: Pick<Database, "select">,
  leadId: string,
): Promise<LeadStatus | null> {
  const [row] = await db.select({ status: leads.status }).from(leads).where(eq(leads.id, leadId));
  return (row?.status as LeadStatus | undefined) ?? null;
}

/** Stamps a contact without changing the status, if the lead still has `status`. */
export async function stampContactIf(
  tx: Writer,
  leadId: string,
  status: LeadStatus,
  at: Date,
): Promise<boolean> {
  const rows = await tx
    .update(leads)
    .set({
      lastContactAt: at,
      firstContactAt: sql`coalesce(${leads.firstContactAt}, ${at.toISOString()}::timestamptz)`,
      updatedAt: at,
    })
    .where(and(eq(leads.id, leadId), eq(leads.status, status)))
    .returning({ id: leads.id });
  return rows.length > 0;
}

export async function setAssignee(tx: Writer, leadId: string, assigneeId: string | null, at: Date) {
  const [before] = await tx
    .select({ assignedTo: leads.assignedTo })
    .from(leads)
    .where(eq(leads.id, leadId))
    .for("update");
  if (!before) return null;
  await tx.update(leads).set({ assignedTo: assigneeId, updatedAt: at }).where(eq(leads.id, leadId));
  return { previous: before.assignedTo };
}

export async function touchLead(tx: Writer, leadId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(leads)
    .set({ updatedAt: at })
    .where(eq(leads.id, leadId))
    .returning({ id: leads.id });
  return rows.length > 0;
}

export async function findLead(db: Pick<Database, "select">, leadId: string) {
  const [row] = await db.select().from(leads).where(eq(leads.id, leadId));
  return row;
}

/** Everything the lead page's history is made of, each newest first (merged by the service). */
export async function historySources(db: Pick<Database, "select">, leadId: string) {
  const [history, messages, syncs] = await Promise.all([
    db
      .select()
      .from(leadHistory)
      .where(eq(leadHistory.leadId, leadId))
      .orderBy(desc(leadHistory.at), desc(leadHistory.createdAt)),
    db
      .select({
        id: whatsAppMessages.id,
        purpose: whatsAppMessages.purpose,
        kind: whatsAppMessages.kind,
        text: whatsAppMessages.text,
        templateName: whatsAppMessages.templateName,
        toPhone: whatsAppMessages.toPhone,
        status: whatsAppMessages.status,
        error: whatsAppMessages.error,
        createdAt: whatsAppMessages.createdAt,
      })
      .from(whatsAppMessages)
      .where(eq(whatsAppMessages.leadId, leadId))
      .orderBy(desc(whatsAppMessages.createdAt)),
    db
      .select({
        id: dentalinkSyncs.id,
        actorId: dentalinkSyncs.actorId,
        outcome: dentalinkSyncs.outcome,
        mode: dentalinkSyncs.mode,
        message: dentalinkSyncs.message,
        errors: dentalinkSyncs.errors,
        appointmentId: dentalinkSyncs.appointmentId,
        createdAt: dentalinkSyncs.createdAt,
        finishedAt: dentalinkSyncs.finishedAt,
      })
      .from(dentalinkSyncs)
      .where(eq(dentalinkSyncs.leadId, leadId))
      .orderBy(desc(dentalinkSyncs.createdAt)),
  ]);
  return { history, messages, syncs };
}
