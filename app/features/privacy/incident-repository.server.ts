import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, privacyIncidentNotices, privacyIncidents, users } from "~/db/schema";

/** The breach register's rows (ADR 038). */

export type IncidentRow = typeof privacyIncidents.$inferSelect;
export type IncidentValues = Omit<
  typeof privacyIncidents.$inferInsert,
  "id" | "createdAt" | "updatedAt" | "status" | "createdBy"
>;

export async function listIncidentRows(db: Database): Promise<(IncidentRow & { notices: number })[]> {
  const rows = await db
    .select({ incident: privacyIncidents, notices: count(privacyIncidentNotices.id) })
    .from(privacyIncidents)
    .leftJoin(privacyIncidentNotices, eq(privacyIncidentNotices.incidentId, privacyIncidents.id))
    .groupBy(privacyIncidents.id)
    .orderBy(desc(privacyIncidents.discoveredAt), desc(privacyIncidents.createdAt));
  return rows.map((row) => ({ ...row.incident, notices: Number(row.notices) }));
}

export async function incidentRow(
  db: Pick<Database, "select">,
  id: string,
  options: { lock?: boolean } = {},
): Promise<IncidentRow | undefined> {
  const query = db.select().from(privacyIncidents).where(eq(privacyIncidents.id, id));
  const [row] = options.lock ? await query.for("update") : await query;
  return row;
}

export async function insertIncident(
  db: Pick<Database, "insert">,
  values: IncidentValues & { createdBy: string },
): Promise<string> {
  const [row] = await db.insert(privacyIncidents).values(values).returning({ id: privacyIncidents.id });
  return row!.id;
}

export async function updateIncident(
  db: Pick<Database, "update">,
  id: string,
  values: Partial<typeof privacyIncidents.$inferInsert>,
): Promise<void> {
  await db
    .update(privacyIncidents)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(privacyIncidents.id, id));
}

/** The addresses already told about an incident (lower case). */
export async function notifiedEmails(db: Pick<Database, "select">, incidentId: string): Promise<Set<string>> {
  const rows = await db
    .select({ email: privacyIncidentNotices.email })
    .from(privacyIncidentNotices)
    .where(eq(privacyIncidentNotices.incidentId, incidentId));
  return new Set(rows.map((row) => (row.email ?? "").toLowerCase()).filter(Boolean));
}

export async function noticeCount(db: Pick<Database, "select">, incidentId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(privacyIncidentNotices)
    .where(eq(privacyIncidentNotices.incidentId, incidentId));
  return Number(row?.n ?? 0);
}

/** The accounts with these e-mail addresses (any case), so a notice records whose account it reached. */
export async function accountsByEmail(
  db: Pick<Database, "select">,
  emails: readonly string[],
): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, [...emails]));
  return new Map(rows.map((row) => [row.email.toLowerCase(), row.id]));
}

export async function insertNotice(
  db: Pick<Database, "insert">,
  notice: { incidentId: string; userId: string | null; email: string; outboxId: string },
): Promise<void> {
  await db.insert(privacyIncidentNotices).values({ ...notice, channel: "email" });
}

export async function noticesOf(db: Pick<Database, "select">, incidentId: string) {
  return db
    .select({
      email: privacyIncidentNotices.email,
      createdAt: privacyIncidentNotices.createdAt,
      userId: privacyIncidentNotices.userId,
    })
    .from(privacyIncidentNotices)
    .where(and(eq(privacyIncidentNotices.incidentId, incidentId)))
    .orderBy(desc(privacyIncidentNotices.createdAt));
}

/** One audit row (the product's audit log), in the transaction of the change it records. */
export async function auditIncident(
  db: Pick<Database, "insert">,
  entry: {
    actorId: string;
    actorRoles: readonly string[];
    ip: string;
    action: string;
    details: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    actorRoles: entry.actorRoles.join(","),
    action: entry.action,
    targetUserId: null,
    details: entry.details,
    ip: entry.ip,
  });
}
