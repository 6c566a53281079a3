import { and, asc, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, leads, leadTallies, roles, userRoles, users } from "~/db/schema";
import { addDays, startOfClinicDay } from "~/domain/clinic-time";
import { containsPattern, searchTerms } from "~/domain/lead-search";
import { ALL, ASSIGNED_TO_ME, UNASSIGNED, type LeadSort } from "./lead-panel-options";
import type { LeadFilters } from "./lead-panel-schema";

/** Leads per (level, status), exact (kept by a trigger, migration 0013): a handful of rows, never a scan. */
export async function readLeadTallies(db: Database) {
  return db
    .select({ level: leadTallies.level, status: leadTallies.status, n: leadTallies.n })
    .from(leadTallies);
}

export type LeadTally = Awaited<ReturnType<typeof readLeadTallies>>[number];

/** Who is looking: 'Mis leads' means assigned to this user. */
export interface Viewer {
  userId: string;
}

/**
 * The WHERE clause of a view: every search term must match the lead's folded name, e-mail or phone digits
 * (`search_text`, GIN trigram index, migration 0013), and every filter must hold.
 */
export function leadConditions(filters: LeadFilters, viewer: Viewer): SQL | undefined {
  const conditions: Array<SQL | undefined> = searchTerms(filters.q).map(
    // The pattern is folded by the same functions as the column, so 'GONZÁLEZ' matches 'gonzalez'.
    (term) => sql`${leads.searchText} like f_unaccent(lower(${containsPattern(term)}))`,
  );
  if (filters.level !== ALL) conditions.push(eq(leads.level, filters.level));
  if (filters.status !== ALL) conditions.push(eq(leads.status, filters.status));
  if (filters.source !== ALL) conditions.push(eq(leads.source, filters.source));
  if (filters.treatment !== ALL) conditions.push(eq(leads.treatment, filters.treatment));
  if (filters.assignee === ASSIGNED_TO_ME) conditions.push(eq(leads.assignedTo, viewer.userId));
  else if (filters.assignee === UNASSIGNED) conditions.push(isNull(leads.assignedTo));
  else if (filters.assignee !== ALL) conditions.push(eq(leads.assignedTo, filters.assignee));
  // Calendar days in the clinic's time zone, both ends included.
  if (filters.from) conditions.push(sql`${leads.createdAt} >= ${startOfClinicDay(filters.from)}`);
  if (filters.to) conditions.push(sql`${leads.createdAt} < ${startOfClinicDay(addDays(filters.to, 1))}`);
  return and(...conditions);
}

/** 'Último contacto' sorts leads never contacted last: a null contact sorts as -infinity. */
const contactKey = sql`coalesce(${leads.lastContactAt}, '-infinity'::timestamptz)`;

/** Each sort ends on (created_at, id), so the order is total and pages never overlap. */
const orderings: Record<LeadSort, SQL[]> = {
  recientes: [desc(leads.createdAt), desc(leads.id)],
  antiguos: [asc(leads.createdAt), asc(leads.id)],
  puntaje: [desc(leads.score), desc(leads.createdAt), desc(leads.id)],
  contacto: [sql`${contactKey} desc`, desc(leads.createdAt), desc(leads.id)],
};

const assignee = sql<string | null>`nullif(trim(${users.firstName} || ' ' || ${users.lastName}), '')`;

const listColumns = {
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
  profilingObjectedAt: leads.profilingObjectedAt,
  status: leads.status,
  source: leads.source,
  createdAt: leads.createdAt,
  lastContactAt: leads.lastContactAt,
  resubmittedAt: leads.resubmittedAt,
  assignedTo: leads.assignedTo,
  assigneeName: assignee,
};

/**
 * One page of a view. `fewMatches` says the view is known to match at most a few hundred leads: then the matches are
 * collected first (the GIN indexes) and sorted, behind an `OFFSET 0` fence. Without it the planner, assuming the
 * filters independent, may walk the whole created_at index hoping to meet 25 matches soon, which for a combination
 * that matches nothing reads every lead (150+ ms at 100,000).
 */
export async function listLeads(
  db: Database,
  where: SQL | undefined,
  sort: LeadSort,
  page: { limit: number; offset: number; fewMatches: boolean },
) {
  // The page's 25 ids are found on the leads table alone (an index walk for most sorts), then joined: the join
  // never runs over the rows an offset skips.
  const order = sql.join(orderings[sort], sql`, `);
  const pageIds = page.fewMatches
    ? sql`select "leads"."id" from (select ${leads.id}, ${leads.createdAt}, ${leads.score}, ${leads.lastContactAt}
          from ${leads} where ${where ?? sql`true`} offset 0) as "leads"
          order by ${order} limit ${page.limit} offset ${page.offset}`
    : db
        .select({ id: leads.id })
        .from(leads)
        .where(where)
        .orderBy(...orderings[sort])
        .limit(page.limit)
        .offset(page.offset);
  return db
    .select(listColumns)
    .from(leads)
    .leftJoin(users, eq(users.id, leads.assignedTo))
    .where(sql`${leads.id} in (${pageIds})`)
    .orderBy(...orderings[sort]);
}

export type LeadListRow = Awaited<ReturnType<typeof listLeads>>[number];

/**
 * How many leads a view matches, counting at most `cap + 1` rows: `{ count, capped }` with `capped` when there are
 * more than `cap`. Counting a common search term over 100,000 leads exactly costs more than the page itself.
 */
export async function countLeadsMatching(
  db: Database,
  where: SQL | undefined,
  cap: number,
): Promise<{ count: number; capped: boolean }> {
  const limited = db
    .select({ one: sql`1` })
    .from(leads)
    .where(where)
    .limit(cap + 1)
    .as("limited");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(limited);
  const n = Number(row?.n ?? 0);
  return { count: Math.min(n, cap), capped: n > cap };
}

/** Where an export batch resumes: the sort key of the last row sent, as exact database text (microseconds kept). */
export interface ExportCursor {
  createdAt: string;
  id: string;
  score: number;
  contact: string;
}

const exportColumns = {
  ...listColumns,
  cursorCreatedAt: sql<string>`${leads.createdAt}::text`,
  cursorContact: sql<string>`${contactKey}::text`,
};

function after(sort: LeadSort, cursor: ExportCursor): SQL {
  const created = sql`${cursor.createdAt}::timestamptz`;
  const id = sql`${cursor.id}::uuid`;
  switch (sort) {
    case "recientes":
      return sql`(${leads.createdAt}, ${leads.id}) < (${created}, ${id})`;
    case "antiguos":
      return sql`(${leads.createdAt}, ${leads.id}) > (${created}, ${id})`;
    case "puntaje":
      return sql`(${leads.score}, ${leads.createdAt}, ${leads.id}) < (${cursor.score}::int, ${created}, ${id})`;
    case "contacto":
      return sql`(${contactKey}, ${leads.createdAt}, ${leads.id}) < (${cursor.contact}::timestamptz, ${created}, ${id})`;
  }
}

/**
 * The next `size` leads of a view after `cursor` (keyset pagination): each batch is one short query, so an export
 * of 100,000 rows neither holds them in memory nor keeps a transaction open on the single embedded connection.
 */
export async function exportBatch(
  db: Database,
  where: SQL | undefined,
  sort: LeadSort,
  cursor: ExportCursor | null,
  size: number,
) {
  const rows = await db
    .select(exportColumns)
    .from(leads)
    .leftJoin(users, eq(users.id, leads.assignedTo))
    .where(cursor ? and(where, after(sort, cursor)) : where)
    .orderBy(...orderings[sort])
    .limit(size);
  const last = rows.at(-1);
  const next: ExportCursor | null = last
    ? { createdAt: last.cursorCreatedAt, id: last.id, score: last.score, contact: last.cursorContact }
    : null;
  return { rows, next };
}

export type LeadExportRow = Awaited<ReturnType<typeof exportBatch>>["rows"][number];

/** Staff who can own leads (active asesores), for the 'Asignado a' filter, by name. */
export async function listAssignableStaff(db: Database) {
  return db
    .selectDistinct({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.isActive, true)))
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.name, "asesor")))
    .orderBy(users.firstName, users.lastName, users.id)
    .limit(200);
}

/** The export is a disclosure of personal data: who took which view, from where (DESIGN §6). */
export async function recordLeadExport(
  db: Database,
  entry: { actorId: string; actorRoles: string[]; ip: string; filters: LeadFilters; at: Date },
) {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    actorRoles: entry.actorRoles.join(","),
    action: "lead.exported",
    details: { filters: { ...entry.filters } },
    ip: entry.ip,
    createdAt: entry.at,
  });
}
