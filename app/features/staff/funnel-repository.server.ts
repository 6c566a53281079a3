import { and, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads } from "~/db/schema";
import type { LeadCounts } from "./funnel-dto";
import { ALL, type LevelFilter, type StatusFilter } from "./lead-panel-options";

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

export interface LeadSearch {
  q: string;
  level: LevelFilter;
  status: StatusFilter;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (match) => `\\${match}`);
}

function searchCondition(q: string): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${escapeLike(q)}%`;
  const conditions = [ilike(leads.name, pattern), ilike(leads.phone, pattern), ilike(leads.email, pattern)];
  // Phones are stored as E.164; "9 1234 5001" or "(9) 1234-5001" should still find "+56912345001".
  const digits = q.replace(/\D/g, "");
  if (digits.length >= 3 && digits !== q) conditions.push(ilike(leads.phone, `%${digits}%`));
  return or(...conditions);
}

/** The newest leads matching the panel's filters; `limit + 1` rows are read to know whether more matched. */
export async function searchLeads(db: Database, search: LeadSearch, limit: number) {
  const rows = await db
    .select({
      id: leads.id,
      name: leads.name,
      phone: leads.phone,
      email: leads.email,
      treatment: leads.treatment,
      urgency: leads.urgency,
      budget: leads.budget,
      message: leads.message,
      score: leads.score,
      level: leads.level,
      status: leads.status,
      source: leads.source,
      createdAt: leads.createdAt,
      lastContactAt: leads.lastContactAt,
    })
    .from(leads)
    .where(
      and(
        searchCondition(search.q),
        search.level === ALL ? undefined : eq(leads.level, search.level),
        search.status === ALL ? undefined : eq(leads.status, search.status),
      ),
    )
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), truncated: rows.length > limit };
}

export type LeadListRow = Awaited<ReturnType<typeof searchLeads>>["rows"][number];
