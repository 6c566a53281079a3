import { and, asc, desc, eq, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { auditLog, privacyRequestEvents, privacyRequests, privacyVerifications, users } from "~/db/schema";
import type { PrivacyRequestStatus, PrivacyRight } from "~/domain/privacy";

/** The rights workflow's queries (only Drizzle here). */

export type PrivacyRequestRow = typeof privacyRequests.$inferSelect;

export async function insertRequest(
  tx: Database,
  values: typeof privacyRequests.$inferInsert,
): Promise<PrivacyRequestRow | undefined> {
  const [row] = await tx
    .insert(privacyRequests)
    .values(values)
    .onConflictDoNothing({ target: privacyRequests.submissionId })
    .returning();
  return row;
}

export async function requestBySubmission(db: Database, submissionId: string) {
  const [row] = await db.select().from(privacyRequests).where(eq(privacyRequests.submissionId, submissionId));
  return row;
}

export async function requestById(db: Database, id: string) {
  const [row] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, id));
  return row;
}

/** The request, locked until the transaction ends (every change of state goes through this). */
export async function lockRequest(tx: Database, id: string) {
  const [row] = await tx.select().from(privacyRequests).where(eq(privacyRequests.id, id)).for("update");
  return row;
}

export async function updateRequest(tx: Database, id: string, values: Partial<PrivacyRequestRow>) {
  await tx
    .update(privacyRequests)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(privacyRequests.id, id));
}

export async function addEvent(
  tx: Pick<Database, "insert">,
  event: {
    requestId: string;
    kind: string;
    text?: string;
    actorId?: string | null;
    details?: Record<string, unknown>;
    /** Ignored: the history records when the step was written (kept so callers may say when they act). */
    at?: Date;
  },
) {
  await tx.insert(privacyRequestEvents).values({
    requestId: event.requestId,
    kind: event.kind,
    text: event.text ?? "",
    actorId: event.actorId ?? null,
    details: event.details ?? {},
    // The wall clock, not the transaction's start: steps of one transaction keep their order in the history.
    at: sql`clock_timestamp()`,
  });
}

/** The product's audit log: who did what to which request (no personal data in the details). */
export async function audit(
  tx: Pick<Database, "insert">,
  entry: {
    actorId: string | null;
    actorRoles?: readonly string[];
    action: string;
    targetUserId: string | null;
    details: Record<string, unknown>;
    ip: string | null;
  },
) {
  await tx.insert(auditLog).values({
    actorId: entry.actorId,
    actorRoles: (entry.actorRoles ?? []).join(","),
    action: entry.action,
    targetUserId: entry.targetUserId,
    details: entry.details,
    ip: entry.ip,
  });
}

export async function insertVerification(tx: Database, values: typeof privacyVerifications.$inferInsert) {
  await tx.insert(privacyVerifications).values(values);
}

/** An unused e-mail link by its hash, locked. */
export async function lockLinkVerification(tx: Database, secretHash: string) {
  const [row] = await tx
    .select()
    .from(privacyVerifications)
    .where(and(eq(privacyVerifications.secretHash, secretHash), eq(privacyVerifications.method, "email")))
    .for("update");
  return row;
}

/** The newest WhatsApp code of a request, locked. */
export async function lockLatestCode(tx: Database, requestId: string) {
  const [row] = await tx
    .select()
    .from(privacyVerifications)
    .where(and(eq(privacyVerifications.requestId, requestId), eq(privacyVerifications.method, "whatsapp")))
    .orderBy(desc(privacyVerifications.createdAt))
    .limit(1)
    .for("update");
  return row;
}

export async function countAttempt(tx: Database, id: string) {
  await tx
    .update(privacyVerifications)
    .set({ attempts: sql`${privacyVerifications.attempts} + 1` })
    .where(eq(privacyVerifications.id, id));
}

export async function consumeVerification(tx: Database, id: string, now: Date) {
  await tx
    .update(privacyVerifications)
    .set({ consumedAt: now, attempts: sql`${privacyVerifications.attempts} + 1` })
    .where(eq(privacyVerifications.id, id));
}

/** The account a proven contact belongs to (an e-mail case-insensitively, a phone as stored). */
export async function accountOfContact(
  tx: Database,
  contact: { email?: string | null; phone?: string | null },
) {
  const conditions: SQL[] = [];
  if (contact.email) conditions.push(sql`lower(${users.email}) = ${contact.email.toLowerCase()}`);
  if (contact.phone) conditions.push(eq(users.phone, contact.phone));
  if (conditions.length === 0) return undefined;
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(or(...conditions))
    .limit(2);
  return row?.id;
}

export async function userContact(db: Database, userId: string) {
  const [row] = await db
    .select({ email: users.email, phone: users.phone, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

const OPEN: PrivacyRequestStatus[] = ["received", "in_progress"];
const CLOSED: PrivacyRequestStatus[] = ["approved", "partially_approved", "refused", "withdrawn", "expired"];

export interface QueueQuery {
  statuses: PrivacyRequestStatus[] | null;
  right?: PrivacyRight;
  dueBefore?: Date;
  limit: number;
}

export const statusGroups = {
  abiertas: OPEN,
  por_confirmar: ["unverified"],
  cerradas: CLOSED,
  todas: null,
} as const;

/** The queue: the nearest due date first; requests without a clock (unconfirmed) after, newest first. */
export async function listRequests(db: Database, query: QueueQuery) {
  return db
    .select()
    .from(privacyRequests)
    .where(
      and(
        query.statuses ? inArray(privacyRequests.status, query.statuses) : undefined,
        query.right ? eq(privacyRequests.right, query.right) : undefined,
        query.dueBefore ? lte(privacyRequests.dueAt, query.dueBefore) : undefined,
      ),
    )
    .orderBy(sql`${privacyRequests.dueAt} asc nulls last`, desc(privacyRequests.createdAt))
    .limit(query.limit);
}

/** Open requests due by `dueBefore` (overdue included): the dashboard's counts and the digest. */
export async function openDueBy(db: Database, dueBefore: Date) {
  return db
    .select({ id: privacyRequests.id, right: privacyRequests.right, dueAt: privacyRequests.dueAt })
    .from(privacyRequests)
    .where(and(inArray(privacyRequests.status, OPEN), lte(privacyRequests.dueAt, dueBefore)))
    .orderBy(asc(privacyRequests.dueAt));
}

export async function requestsOfUser(db: Database, userId: string) {
  return db
    .select()
    .from(privacyRequests)
    .where(eq(privacyRequests.userId, userId))
    .orderBy(desc(privacyRequests.createdAt))
    .limit(100);
}

const actor = alias(users, "actor");

export async function eventsOf(db: Database, requestId: string) {
  return db
    .select({
      id: privacyRequestEvents.id,
      kind: privacyRequestEvents.kind,
      text: privacyRequestEvents.text,
      at: privacyRequestEvents.at,
      actorEmail: actor.email,
    })
    .from(privacyRequestEvents)
    .leftJoin(actor, eq(actor.id, privacyRequestEvents.actorId))
    .where(eq(privacyRequestEvents.requestId, requestId))
    .orderBy(asc(privacyRequestEvents.at), asc(privacyRequestEvents.seq));
}

/** Unconfirmed requests older than `before` become `expired` (their proofs have run out). */
export async function expireUnverified(db: Database, before: Date) {
  return db
    .update(privacyRequests)
    .set({ status: "expired", updatedAt: new Date() })
    .where(and(eq(privacyRequests.status, "unverified"), lte(privacyRequests.createdAt, before)))
    .returning({ id: privacyRequests.id });
}
