import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { logger } from "~/lib/logger.server";

export type OutboxRow = typeof outbox.$inferSelect;
export type OutboxHandler = (payload: Record<string, unknown>) => Promise<string>;

const MAX_ATTEMPTS = 8;
const BATCH_SIZE = 10;

/** Records a side effect to deliver; the same idempotency key is stored once. Use inside the business transaction. */
export async function enqueue(
  db: Pick<Database, "insert">,
  item: { kind: string; idempotencyKey: string; payload: Record<string, unknown> },
): Promise<void> {
  await db.insert(outbox).values(item).onConflictDoNothing({ target: outbox.idempotencyKey });
}

/** Exponential backoff: 5 s, 10 s, 20 s … capped at 30 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30 * 60_000, 5_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Delivers what is due. Rows are claimed with FOR UPDATE SKIP LOCKED inside a transaction, so several instances
 * never deliver the same row twice; each outcome (sent, retry later, failed for good) is recorded.
 */
export async function deliverDue(
  db: Database,
  handlers: Record<string, OutboxHandler>,
  now = new Date(),
): Promise<number> {
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outbox)
      .where(
        and(
          eq(outbox.status, "pending"),
          lte(outbox.nextAttemptAt, now),
          inArray(outbox.kind, Object.keys(handlers)),
        ),
      )
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(BATCH_SIZE)
      .for("update", { skipLocked: true });
    if (due.length > 0) {
      // Push them out of reach while we deliver; a crash mid-delivery retries them after the lease.
      await tx
        .update(outbox)
        .set({ nextAttemptAt: new Date(now.getTime() + 60_000), attempts: sql`${outbox.attempts} + 1` })
        .where(
          inArray(
            outbox.id,
            due.map((row) => row.id),
          ),
        );
    }
    return due;
  });

  for (const row of claimed) {
    const attempts = row.attempts + 1;
    try {
      const via = await handlers[row.kind]!(row.payload);
      await db
        .update(outbox)
        .set({ status: "sent", sentAt: new Date(), deliveredVia: via, lastError: null })
        .where(eq(outbox.id, row.id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const failed = attempts >= MAX_ATTEMPTS;
      logger.warn(
        { outboxId: row.id, kind: row.kind, attempts, failed, err: message },
        "outbox delivery failed",
      );
      await db
        .update(outbox)
        .set({
          status: failed ? "failed" : "pending",
          lastError: message.slice(0, 1000),
          nextAttemptAt: new Date(Date.now() + retryDelayMs(attempts)),
        })
        .where(eq(outbox.id, row.id));
    }
  }
  return claimed.length;
}
