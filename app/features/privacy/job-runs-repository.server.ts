import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { jobRuns } from "~/db/schema";

/**
 * A job's claim on a period ("2027-06-15" for a daily job): the primary key (job, period) lets one insert win, so
 * several instances never run the same period twice (DESIGN decision 20). Answers whether this caller won.
 */
export async function claimJobPeriod(
  db: Pick<Database, "insert">,
  job: string,
  period: string,
  now: Date,
): Promise<boolean> {
  const claimed = await db
    .insert(jobRuns)
    .values({ job, period, startedAt: now })
    .onConflictDoNothing()
    .returning({ job: jobRuns.job });
  return claimed.length > 0;
}

export async function finishJobPeriod(
  db: Pick<Database, "update">,
  job: string,
  period: string,
  summary: Record<string, unknown>,
): Promise<void> {
  await db
    .update(jobRuns)
    .set({ finishedAt: new Date(), summary })
    .where(and(eq(jobRuns.job, job), eq(jobRuns.period, period)));
}
