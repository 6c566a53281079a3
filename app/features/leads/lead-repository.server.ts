import { and, desc, eq, gte } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leadHistory, leads } from "~/db/schema";

export type NewLeadRow = typeof leads.$inferInsert;
export type LeadRow = typeof leads.$inferSelect;

/** Inserts unless a lead with the same submission id exists; returns the stored row either way. */
export async function insertLeadOnce(
  db: Database,
  row: NewLeadRow,
): Promise<{ lead: LeadRow; created: boolean }> {
  const inserted = await db
    .insert(leads)
    .values(row)
    .onConflictDoNothing({ target: leads.submissionId })
    .returning();
  if (inserted[0]) return { lead: inserted[0], created: true };
  const [existing] = await db.select().from(leads).where(eq(leads.submissionId, row.submissionId)).limit(1);
  if (!existing) throw new Error("lead vanished after a submission-id conflict");
  return { lead: existing, created: false };
}

/** The same person sending the same request again within the window (a double submit without JavaScript). */
export async function findRecentDuplicate(
  db: Database,
  candidate: Pick<NewLeadRow, "phone" | "treatment" | "message">,
  since: Date,
): Promise<LeadRow | undefined> {
  const [row] = await db
    .select()
    .from(leads)
    .where(
      and(
        eq(leads.phone, candidate.phone),
        eq(leads.treatment, candidate.treatment),
        eq(leads.message, candidate.message ?? ""),
        gte(leads.createdAt, since),
      ),
    )
    .orderBy(desc(leads.createdAt))
    .limit(1);
  return row;
}

export async function countLeads(db: Database): Promise<number> {
  return db.$count(leads);
}

/** The latest lead with this phone (E.164), if any: where a message from that number is filed. */
export async function findLatestLeadByPhone(db: Database, phone: string): Promise<LeadRow | undefined> {
  const [row] = await db
    .select()
    .from(leads)
    .where(eq(leads.phone, phone))
    .orderBy(desc(leads.createdAt))
    .limit(1);
  return row;
}

export type NewLeadHistoryRow = typeof leadHistory.$inferInsert;

export async function insertLeadHistory(db: Pick<Database, "insert">, row: NewLeadHistoryRow) {
  await db.insert(leadHistory).values(row);
}
