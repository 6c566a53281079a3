import { desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { auditLog, users } from "~/db/schema";

export interface AuditEntry {
  actorId: string;
  actorRoles: readonly string[];
  action: string;
  targetUserId: string | null;
  details: Record<string, unknown>;
  ip: string;
}

/** Appends one row; called with the transaction of the change it records. */
export async function recordAudit(db: Pick<Database, "insert">, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    actorRoles: entry.actorRoles.join(","),
    action: entry.action,
    targetUserId: entry.targetUserId,
    details: entry.details,
    ip: entry.ip,
  });
}

const actor = alias(users, "actor");
const target = alias(users, "target");

/** The newest entries with the actor's and the affected user's e-mail (null when the account no longer exists). */
export async function latestAuditEntries(db: Database, options: { limit: number; targetUserId?: string }) {
  return db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      action: auditLog.action,
      actorId: auditLog.actorId,
      actorEmail: actor.email,
      actorRoles: auditLog.actorRoles,
      targetUserId: auditLog.targetUserId,
      targetEmail: target.email,
      details: auditLog.details,
      ip: auditLog.ip,
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(target, eq(target.id, auditLog.targetUserId))
    .where(options.targetUserId ? eq(auditLog.targetUserId, options.targetUserId) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(options.limit);
}

export type AuditRow = Awaited<ReturnType<typeof latestAuditEntries>>[number];
