import { and, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads } from "~/db/schema";
import type { DataSubject } from "./subject";

/** The person's leads: matched by e-mail (any case) or phone (E.164), as the lead forms store them. */
function leadsOf(subject: DataSubject): SQL {
  const conditions: SQL[] = [];
  if (subject.emails.length > 0) conditions.push(inArray(sql`lower(${leads.email})`, subject.emails));
  if (subject.phones.length > 0) conditions.push(inArray(leads.phone, subject.phones));
  return conditions.length > 0 ? (or(...conditions) as SQL) : sql`false`;
}

/**
 * Marks the person's leads as objected and takes their score away: score 0, level 'cold', no reasons — the values
 * that trigger nothing (no hot-lead alert, no 'Hot' count, last in a sort by score); staff see "Sin puntaje".
 */
export async function markLeadsObjected(db: Pick<Database, "update">, subject: DataSubject, at: Date) {
  const rows = await db
    .update(leads)
    .set({ profilingObjectedAt: at, score: 0, level: "cold", reasons: [] })
    .where(and(leadsOf(subject), isNull(leads.profilingObjectedAt)))
    .returning({ id: leads.id });
  return rows.length;
}

/** The person's objected leads, with the answers a score is computed from. */
export async function objectedLeads(db: Pick<Database, "select">, subject: DataSubject) {
  return db
    .select({
      id: leads.id,
      treatment: leads.treatment,
      urgency: leads.urgency,
      budget: leads.budget,
      phone: leads.phone,
      email: leads.email,
      message: leads.message,
    })
    .from(leads)
    .where(and(leadsOf(subject), isNotNull(leads.profilingObjectedAt)));
}

export async function restoreLeadScore(
  db: Pick<Database, "update">,
  id: string,
  score: { score: number; level: string; reasons: string[] },
) {
  await db
    .update(leads)
    .set({ profilingObjectedAt: null, ...score })
    .where(sql`${leads.id} = ${id}`);
}
