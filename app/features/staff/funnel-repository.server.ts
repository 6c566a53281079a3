import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, leads } from "~/db/schema";
import type { LeadCounts } from "./funnel-dto";
import type { LeadStatus } from "./lead-panel-options";

const count = (condition?: SQL) =>
  (condition ? sql`count(*) filter (where ${condition})` : sql`count(*)`).mapWith(Number);

/** Every figure of the Overview and the panel's counters, in one pass over the leads table. */
export async function countLeads(db: Database): Promise<LeadCounts> {
  const [row] = await db
    .select({
      total: count(),
      hot: count(sql`${leads.level} = 'hot'`),
      warm: count(sql`${leads.level} = 'warm'`),
      cold: count(sql`${leads.level} = 'cold'`),
      new: count(sql`${leads.status} = 'new'`),
      contactedStage: count(sql`${leads.status} in ('contacted', 'qualified', 'scheduled', 'converted')`),
      qualifiedStage: count(sql`${leads.status} in ('qualified', 'scheduled', 'converted')`),
      converted: count(sql`${leads.status} = 'converted'`),
      whatsapp: count(sql`${leads.source} = 'whatsapp'`),
      // avg() skips the leads never contacted (null last_contact_at); null when there is none.
      avgResponseMinutes: sql<
        number | null
      >`avg(extract(epoch from (${leads.lastContactAt} - ${leads.createdAt})) / 60)::float8`,
    })
    .from(leads);
  if (!row) throw new Error("count query returned no row");
  return {
    ...row,
    avgResponseMinutes: row.avgResponseMinutes === null ? null : Number(row.avgResponseMinutes),
  };
}

export interface LeadStatusChange {
  leadId: string;
  status: LeadStatus;
  at: Date;
  actor: { id: string; roles: string[]; ip: string };
}

/**
 * Sets the status, stamps the last contact (spec 001 §4) and records who did it, in one transaction. Returns the
 * lead's name, or null when there is no such lead.
 */
export async function changeLeadStatus(
  db: Database,
  change: LeadStatusChange,
): Promise<{ name: string } | null> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(leads)
      .set({
        status: change.status,
        lastContactAt: change.at,
        firstContactAt: sql`coalesce(${leads.firstContactAt}, ${change.at})`,
        updatedAt: change.at,
      })
      .where(eq(leads.id, change.leadId))
      .returning({ name: leads.name });
    if (!updated) return null;
    await tx.insert(auditLog).values({
      actorId: change.actor.id,
      actorRoles: change.actor.roles.join(","),
      action: "lead.status_changed",
      details: { leadId: change.leadId, status: change.status },
      ip: change.actor.ip,
      createdAt: change.at,
    });
    return updated;
  });
}
