import { and, desc, eq, gte, or, sql } from "drizzle-orm";
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

const OPEN = sql`${leads.status} not in ('converted', 'lost')`;

/**
 * Serialises requests about the same contact (phone digits, e-mail in lower case) until the transaction ends, so
 * two requests from one person at once cannot both become new leads. Keys are taken in a fixed order (no deadlock).
 */
export async function lockContacts(tx: Pick<Database, "execute">, keys: string[]) {
  for (const key of [...new Set(keys)].toSorted()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`lead-contact:${key}`}))`);
  }
}

/** The lead a form submission id already made, or the lead it was merged into. */
export async function findBySubmission(db: Pick<Database, "select">, submissionId: string) {
  const [own] = await db.select().from(leads).where(eq(leads.submissionId, submissionId)).limit(1);
  if (own) return own;
  const [merged] = await db
    .select({ lead: leads })
    .from(leadHistory)
    .innerJoin(leads, eq(leads.id, leadHistory.leadId))
    .where(eq(leadHistory.submissionId, submissionId))
    .limit(1);
  return merged?.lead;
}

/**
 * The open lead (not converted, not lost) with this phone, newest first, else the newest with this e-mail. Phones are stored in E.164 (the form's
 * schema and the inbound webhook normalise them), so equal E.164 is equal digits; e-mails compare in lower case.
 */
export async function findOpenLeadByContact(
  db: Pick<Database, "select">,
  contact: { phone: string; email: string | null },
): Promise<LeadRow | undefined> {
  const byContact = contact.email
    ? or(eq(leads.phone, contact.phone), sql`lower(${leads.email}) = ${contact.email.toLowerCase()}`)
    : eq(leads.phone, contact.phone);
  const [row] = await db
    .select()
    .from(leads)
    .where(and(OPEN, byContact))
    // A lead with the same phone first: a match by e-mail alone only records the request (ADR 025).
    .orderBy(sql`(${leads.phone} = ${contact.phone}) desc`, desc(leads.createdAt))
    .limit(1)
    .for("update");
  return row;
}

export async function updateLead(db: Pick<Database, "update">, id: string, set: Partial<NewLeadRow>) {
  const [row] = await db.update(leads).set(set).where(eq(leads.id, id)).returning();
  if (!row) throw new Error("lead vanished during an update");
  return row;
}
