import { and, asc, eq, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  auditLog,
  dentalinkMockAppointments,
  dentalinkMockPatients,
  dentalinkSyncs,
  leads,
} from "~/db/schema";

type Writer = Pick<Database, "insert" | "update">;

// ---- The mock's memory (mode without a key) ------------------------------------------------------------------

type MockTable = typeof dentalinkMockPatients | typeof dentalinkMockAppointments;

async function loadRecords(db: Database, table: MockTable): Promise<Array<Record<string, unknown>>> {
  const rows = await db.select({ record: table.record }).from(table).orderBy(asc(table.id));
  return rows.map((row) => row.record);
}

async function saveRecord(db: Database, table: MockTable, id: number, record: Record<string, unknown>) {
  const at = new Date();
  await db
    .insert(table)
    .values({ id, record, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: table.id, set: { record, updatedAt: at } });
}

export const loadMockPatientRecords = (db: Database) => loadRecords(db, dentalinkMockPatients);
export const loadMockAppointmentRecords = (db: Database) => loadRecords(db, dentalinkMockAppointments);
export const saveMockPatientRecord = (db: Database, id: number, record: Record<string, unknown>) =>
  saveRecord(db, dentalinkMockPatients, id, record);
export const saveMockAppointmentRecord = (db: Database, id: number, record: Record<string, unknown>) =>
  saveRecord(db, dentalinkMockAppointments, id, record);

// ---- Leads as the sync tab reads them ----------------------------------------------------------------------------

export async function findLeadForSync(db: Database, leadId: string) {
  const [lead] = await db
    .select({
      id: leads.id,
      name: leads.name,
      email: leads.email,
      phone: leads.phone,
      treatment: leads.treatment,
    })
    .from(leads)
    .where(eq(leads.id, leadId));
  return lead ?? null;
}

// ---- dentalink_syncs ---------------------------------------------------------------------------------------------

export type SyncRow = typeof dentalinkSyncs.$inferSelect;

export interface NewSync {
  submissionId: string;
  actorId: string;
  leadId: string | null;
  mode: "live" | "mock";
  request: Record<string, unknown>;
  at: Date;
}

/** Inserts the processing row of a submission; null when the submission already has one (a double submit). */
export async function claimSync(db: Database, sync: NewSync): Promise<string | null> {
  const [row] = await db
    .insert(dentalinkSyncs)
    .values({
      submissionId: sync.submissionId,
      actorId: sync.actorId,
      leadId: sync.leadId,
      mode: sync.mode,
      request: sync.request,
      createdAt: sync.at,
    })
    .onConflictDoNothing({ target: dentalinkSyncs.submissionId })
    .returning({ id: dentalinkSyncs.id });
  return row?.id ?? null;
}

export async function findSyncBySubmission(db: Database, submissionId: string): Promise<SyncRow | null> {
  const [row] = await db.select().from(dentalinkSyncs).where(eq(dentalinkSyncs.submissionId, submissionId));
  return row ?? null;
}

/**
 * Takes over a submission whose processing row is older than `staleBefore` (its process died mid-call): true when
 * this caller won it. The search before create makes running it again safe.
 */
export async function takeOverStaleSync(db: Database, id: string, staleBefore: Date, at: Date) {
  const rows = await db
    .update(dentalinkSyncs)
    .set({ createdAt: at })
    .where(
      and(
        eq(dentalinkSyncs.id, id),
        eq(dentalinkSyncs.outcome, "processing"),
        lt(dentalinkSyncs.createdAt, staleBefore),
      ),
    )
    .returning({ id: dentalinkSyncs.id });
  return rows.length > 0;
}

export interface SyncFinish {
  id: string;
  outcome: "success" | "failed";
  patientId: string | null;
  patientReused: boolean | null;
  matchedBy: string | null;
  appointmentId: string | null;
  message: string;
  errors: string[];
  errorDetail: string | null;
  /** From a lead card: a success moves the lead to 'scheduled' and stamps its last contact. */
  leadId: string | null;
  mode: "live" | "mock";
  actor: { id: string; roles: readonly string[]; ip: string };
  at: Date;
}

async function audit(tx: Writer, finish: SyncFinish, action: string, details: Record<string, unknown>) {
  await tx.insert(auditLog).values({
    actorId: finish.actor.id,
    actorRoles: finish.actor.roles.join(","),
    action,
    details,
    ip: finish.actor.ip,
    createdAt: finish.at,
  });
}

/**
 * Records the outcome, the audit entry and, for a successful sync from a lead, the lead's new status, in one
 * transaction: the lead is 'scheduled' exactly when a stored sync says Dentalink has its appointment.
 */
export async function finishSync(
  db: Database,
  finish: SyncFinish,
  /** Moves the lead of a successful sync through the lead pipeline (the service passes it; ADR 025). */
  scheduleLead?: (tx: Database, leadId: string) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(dentalinkSyncs)
      .set({
        outcome: finish.outcome,
        patientId: finish.patientId,
        patientReused: finish.patientReused,
        matchedBy: finish.matchedBy,
        appointmentId: finish.appointmentId,
        message: finish.message,
        errors: finish.errors,
        errorDetail: finish.errorDetail,
        finishedAt: finish.at,
      })
      .where(eq(dentalinkSyncs.id, finish.id));
    await audit(tx, finish, "dentalink.sync", {
      syncId: finish.id,
      outcome: finish.outcome,
      mode: finish.mode,
      leadId: finish.leadId,
      patientId: finish.patientId,
      patientReused: finish.patientReused,
      appointmentId: finish.appointmentId,
      errors: finish.errors,
    });
    if (finish.outcome !== "success" || !finish.leadId || !scheduleLead) return;
    await scheduleLead(tx, finish.leadId);
  });
}

/** The newest syncs (for tests and the staff's mock page). */
export async function latestSyncs(db: Database, limit: number) {
  return db
    .select()
    .from(dentalinkSyncs)
    .orderBy(sql`${dentalinkSyncs.createdAt} desc`)
    .limit(limit);
}
