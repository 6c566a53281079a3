import { inArray, lt, sql } from "drizzle-orm";
import { getDb, type Database } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { countRateLimitRefusal } from "~/lib/metrics.server";

export interface RateRule {
  /** Window length in seconds. */
  window: number;
  /** Attempts allowed per window. */
  max: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (only when refused). */
  retryAfter: number | null;
  /** Attempts counted in the current window, this one included (`consumeRate` only). */
  count?: number;
  /** When the refusing window ends (only when refused): the same instant for every refusal in one window. */
  resetsAt: Date | null;
}

export interface RateCheck {
  key: string;
  rule: RateRule;
}

/** Longer than every rule's window: rows older than this are dead and the purge job deletes them. */
export const RATE_LIMIT_RETENTION_SECONDS = 24 * 60 * 60;

const ALLOWED: RateDecision = { allowed: true, retryAfter: null, resetsAt: null };

function decide(count: number, windowStart: Date, rule: RateRule, now: Date): RateDecision {
  if (count <= rule.max) return ALLOWED;
  const resetsAt = new Date(windowStart.getTime() + rule.window * 1000);
  return {
    allowed: false,
    retryAfter: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)),
    resetsAt,
  };
}

/**
 * Counts one attempt for `key` in a fixed window kept in the database, so every instance shares it, across restarts.
 * One atomic upsert: a new window starts at 1, otherwise the count grows.
 */
export async function consumeRate(
  db: Database,
  key: string,
  rule: RateRule,
  now = new Date(),
): Promise<RateDecision> {
  const windowStartLimit = new Date(now.getTime() - rule.window * 1000);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} <= ${windowStartLimit} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${rateLimits.windowStart} <= ${windowStartLimit} then ${now} else ${rateLimits.windowStart} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
  if (!row) throw new Error("rate limit upsert returned nothing");
  const decision = decide(row.count, row.windowStart, rule, now);
  // clinica_rate_limit_refusals_total, by rule (the key without its subject: domain/observability.ts).
  if (!decision.allowed) countRateLimitRefusal(key);
  return { ...decision, count: row.count };
}

/**
 * Counts one attempt on each key in order and stops at the first refusal, so a request refused on its IP key
 * writes nothing for the account keys after it (list the IP key first).
 */
export async function consumeAll(
  db: Database,
  checks: readonly RateCheck[],
  now = new Date(),
): Promise<RateDecision> {
  for (const { key, rule } of checks) {
    const decision = await consumeRate(db, key, rule, now);
    if (!decision.allowed) return decision;
  }
  return ALLOWED;
}

/**
 * Whether any key has already used up its window, without counting this request: for limits that count only
 * failures (sign-in), checked before the attempt; the failure is then recorded with `consumeAll`.
 */
export async function checkBlocked(
  db: Database,
  checks: readonly RateCheck[],
  now = new Date(),
): Promise<RateDecision> {
  if (checks.length === 0) return ALLOWED;
  const rows = await db
    .select()
    .from(rateLimits)
    .where(
      inArray(
        rateLimits.key,
        checks.map((check) => check.key),
      ),
    );
  let refusal: RateDecision = ALLOWED;
  let refusingKey: string | null = null;
  for (const row of rows) {
    const { rule } = checks.find((check) => check.key === row.key)!;
    const live = row.windowStart.getTime() > now.getTime() - rule.window * 1000;
    // count + 1: this request would be the next attempt.
    const decision = live ? decide(row.count + 1, row.windowStart, rule, now) : ALLOWED;
    if (!decision.allowed && (decision.retryAfter ?? 0) > (refusal.retryAfter ?? 0)) {
      refusal = decision;
      refusingKey = row.key;
    }
  }
  if (refusingKey !== null) countRateLimitRefusal(refusingKey);
  return refusal;
}

/** Forgets the attempts counted for these keys (e.g. an account+IP's failures after a successful sign-in). */
export async function clearRates(db: Database, keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await db.delete(rateLimits).where(inArray(rateLimits.key, [...keys]));
}

/** Deletes windows that ended long ago; returns how many rows went. */
export async function purgeExpiredRates(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RATE_LIMIT_RETENTION_SECONDS * 1000);
  const deleted = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, cutoff))
    .returning({ key: rateLimits.key });
  return deleted.length;
}

/** Counts one attempt on each key (IP key first) and tells whether the request must be refused. */
export async function isRateLimited(checks: readonly RateCheck[]): Promise<boolean> {
  return !(await consumeAll(await getDb(), checks)).allowed;
}
