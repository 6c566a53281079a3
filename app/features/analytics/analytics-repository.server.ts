import { and, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads } from "~/db/schema";
import { CLINIC_TIME_ZONE } from "~/domain/clinic-time";
import { FUNNEL_STAGE } from "~/domain/lead-pipeline";
import type { PeriodFigures } from "./analytics-dto";

/**
 * The Overview's and Analytics' aggregates over `leads`, each one statement on the created_at index
 * (`leads_created_at_idx`) for the period's instants.
 */

export interface Range {
  start: Date;
  end: Date;
}

// The funnel's stages are cumulative (ADR 025, 026): a lead counts in every stage it ever reached, by
// `leads.furthest_stage` (a lost lead keeps the stages it reached; a recorded first contact is 'Contacto').
const reached = (stage: number) => sql`${leads.furthestStage} >= ${sql.raw(String(stage))}`;
const responseMinutes = sql`extract(epoch from (${leads.firstContactAt} - ${leads.createdAt})) / 60`;
// A constant, inlined so GROUP BY sees the same expression as SELECT.
const clinicDay = sql<string>`to_char(${leads.createdAt} at time zone ${sql.raw(`'${CLINIC_TIME_ZONE}'`)}, 'YYYY-MM-DD')`;

function figureColumns(range: Range) {
  const inRange = sql`${leads.createdAt} >= ${range.start.toISOString()}::timestamptz and ${leads.createdAt} < ${range.end.toISOString()}::timestamptz`;
  const count = (condition?: SQL) =>
    sql<number>`count(*) filter (where ${inRange}${condition ? sql` and ${condition}` : sql``})`.mapWith(
      Number,
    );
  return {
    total: count(),
    hot: count(sql`${leads.level} = 'hot'`),
    whatsapp: count(sql`${leads.source} = 'whatsapp'`),
    contactedStage: count(reached(FUNNEL_STAGE.contacted)),
    qualifiedStage: count(reached(FUNNEL_STAGE.qualified)),
    converted: count(sql`${leads.status} = 'converted'`),
    medianResponseMinutes: sql<
      number | null
    >`percentile_cont(0.5) within group (order by ${responseMinutes}) filter (where ${inRange} and ${leads.firstContactAt} is not null)`,
  };
}

function toFigures(row: Record<string, unknown>, prefix: string): PeriodFigures {
  const value = (key: string) => Number(row[`${prefix}${key}`] ?? 0);
  const median = row[`${prefix}medianResponseMinutes`];
  return {
    total: value("total"),
    hot: value("hot"),
    whatsapp: value("whatsapp"),
    contactedStage: value("contactedStage"),
    qualifiedStage: value("qualifiedStage"),
    converted: value("converted"),
    medianResponseMinutes: median === null || median === undefined ? null : Number(median),
  };
}

const prefixed = (prefix: string, columns: Record<string, SQL>) =>
  Object.fromEntries(Object.entries(columns).map(([key, column]) => [`${prefix}${key}`, column]));

/** The figures of the period and of the previous one, in one statement over both ranges. */
export async function periodFigures(
  db: Database,
  current: Range,
  previous: Range | null,
): Promise<{ current: PeriodFigures; previous: PeriodFigures | null }> {
  const from = previous && previous.start < current.start ? previous.start : current.start;
  const to = previous && previous.end > current.end ? previous.end : current.end;
  const [row] = await db
    .select({
      ...prefixed("c_", figureColumns(current)),
      ...(previous ? prefixed("p_", figureColumns(previous)) : {}),
    })
    .from(leads)
    .where(and(gte(leads.createdAt, from), lt(leads.createdAt, to)));
  if (!row) throw new Error("figures query returned no row");
  return {
    current: toFigures(row, "c_"),
    previous: previous ? toFigures(row, "p_") : null,
  };
}

const inPeriod = (range: Range) => and(gte(leads.createdAt, range.start), lt(leads.createdAt, range.end));

/** Upper bounds (exclusive, minutes) of the response-time buckets; the last bucket is open. */
export const RESPONSE_BUCKET_LIMITS = [15, 60, 240, 1440, 4320] as const;

/** 0 … 4 by `RESPONSE_BUCKET_LIMITS`, 5 above the last limit, -1 never contacted. */
const responseBucket = sql`case when ${leads.firstContactAt} is null then -1 ${sql.join(
  RESPONSE_BUCKET_LIMITS.map(
    (limit, index) => sql`when ${responseMinutes} < ${sql.raw(String(limit))} then ${sql.raw(String(index))}`,
  ),
  sql` `,
)} else ${sql.raw(String(RESPONSE_BUCKET_LIMITS.length))} end`;
/** 0 = 0–9 … 9 = 90–100; null for a lead without a score (the person objected to profiling, ADR 037). */
const scoreBucket = sql`case when ${leads.profilingObjectedAt} is null then least(${leads.score} / 10, 9) end`;

/** grouping() of the eight columns: one bit per column left out of the row's set, the first column highest. */
const only = (...kept: number[]) => 0b11111111 & ~kept.reduce((mask, bit) => mask | (1 << (7 - bit)), 0);

export interface PeriodBreakdown {
  daily: Array<{ day: string; source: string; level: string; count: number }>;
  /** Per treatment, status and furthest stage reached (the funnel counts by stage, conversions by status). */
  byTreatmentAndStatus: Array<{ treatment: string; status: string; stage: number; count: number }>;
  responseBuckets: Array<{ bucket: number; count: number }>;
  scoreBuckets: Array<{ bucket: number; count: number }>;
}

/**
 * Every chart's counts for the period in one pass over its leads (GROUPING SETS): per clinic day, source and level;
 * per treatment, status and furthest stage (the funnel and the conversion by treatment); per response-time and
 * score bucket.
 */
export async function periodBreakdown(db: Database, range: Range): Promise<PeriodBreakdown> {
  const rows = await db
    .select({
      set: sql<number>`grouping(${clinicDay}, ${leads.source}, ${leads.level}, ${leads.treatment}, ${leads.status}, ${leads.furthestStage}, ${scoreBucket}, ${responseBucket})`.mapWith(
        Number,
      ),
      day: clinicDay,
      source: leads.source,
      level: leads.level,
      treatment: leads.treatment,
      status: leads.status,
      stage: leads.furthestStage,
      score: sql<number | null>`${scoreBucket}`,
      response: sql<number | null>`${responseBucket}`,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(leads)
    .where(inPeriod(range))
    .groupBy(
      sql`grouping sets ((${clinicDay}, ${leads.source}, ${leads.level}), (${leads.treatment}, ${leads.status}, ${leads.furthestStage}), (${scoreBucket}), (${responseBucket}))`,
    );
  const breakdown: PeriodBreakdown = {
    daily: [],
    byTreatmentAndStatus: [],
    responseBuckets: [],
    scoreBuckets: [],
  };
  for (const row of rows) {
    if (row.set === only(0, 1, 2))
      breakdown.daily.push({ day: row.day, source: row.source, level: row.level, count: row.count });
    else if (row.set === only(3, 4, 5))
      breakdown.byTreatmentAndStatus.push({
        treatment: row.treatment,
        status: row.status,
        stage: Number(row.stage),
        count: row.count,
      });
    else if (row.set === only(6)) {
      // Unscored leads are no bucket of the score's distribution.
      if (row.score !== null) breakdown.scoreBuckets.push({ bucket: Number(row.score), count: row.count });
    } else if (row.set === only(7))
      breakdown.responseBuckets.push({ bucket: Number(row.response), count: row.count });
  }
  return breakdown;
}
