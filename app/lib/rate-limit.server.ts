import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rateLimits } from "~/db/schema";

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
}

/**
 * Counts one attempt for `key` in a fixed window kept in the database, so every instance shares it (DESIGN §6).
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
  if (row.count <= rule.max) return { allowed: true, retryAfter: null };
  const resetsAt = row.windowStart.getTime() + rule.window * 1000;
  return { allowed: false, retryAfter: Math.max(1, Math.ceil((resetsAt - now.getTime()) / 1000)) };
}

/** Consumes every key (all are counted) and refuses when any of them is over its rule. */
export async function consumeAll(
  db: Database,
  checks: ReadonlyArray<{ key: string; rule: RateRule }>,
  now = new Date(),
): Promise<RateDecision> {
  const decisions = await Promise.all(checks.map(({ key, rule }) => consumeRate(db, key, rule, now)));
  const refused = decisions.filter((decision) => !decision.allowed);
  if (refused.length === 0) return { allowed: true, retryAfter: null };
  return { allowed: false, retryAfter: Math.max(...refused.map((decision) => decision.retryAfter ?? 1)) };
}
