import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { isIntegrationError } from "~/integrations/http.server";
import { logger } from "~/lib/base/logger.server";
import { seal, unseal } from "~/lib/sealed.server";

export type OutboxRow = typeof outbox.$inferSelect;

/** Which row is being delivered: its id is the idempotency key a handler gives the vendor (the same on a retry). */
export interface OutboxDelivery {
  id: string;
  /** This delivery's attempt number (1 = the first). */
  attempts: number;
  /** What `enqueue` was given as `secret`, opened (undefined when none). */
  secret?: unknown;
}

/**
 * Where a row's secret waits, encrypted (`app/lib/sealed.server.ts`), until the row is sent or fails for good:
 * then it is dropped, so that the row keeps no one-time code or single-use link (ADR 029).
 */
const SEALED = "sealed";

/** A delivery that is the row itself (an e-mail kept in the dev outbox without SMTP): its secret stays, sealed. */
const KEPT_IN_THE_ROW = "dev-outbox";

/**
 * Delivers one row and answers how it went out (stored as `delivered_via`). Throwing schedules a retry with
 * backoff (an `IntegrationError` with `retryAfterMs`, after a long `Retry-After`, is not retried sooner); a
 * `PermanentDeliveryError` ends the row as failed at once.
 */
export type OutboxHandler = (payload: Record<string, unknown>, delivery: OutboxDelivery) => Promise<string>;

/** A failure no retry can fix (the vendor refused the message itself): the row is marked failed, not retried. */
export class PermanentDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PermanentDeliveryError";
  }
}

export const OUTBOX_MAX_ATTEMPTS = 8;
const BATCH_SIZE = 10;
/**
 * How long a claimed row stays out of other workers' reach; renewed right before each row's delivery, so one
 * delivery (every retry of a client included) must end within it (checked at boot for WhatsApp).
 */
export const OUTBOX_LEASE_MS = 60_000;

/**
 * Records a side effect to deliver; the same idempotency key is stored once. Use inside the business transaction.
 * `secret` (a code, a link) is stored sealed and handed to the handler opened; never put one in `payload` or the
 * key. Answers the new row's id, or null when the key was already there (nothing was added).
 */
export async function enqueue(
  db: Pick<Database, "insert">,
  item: {
    id?: string;
    kind: string;
    idempotencyKey: string;
    payload: Record<string, unknown>;
    secret?: unknown;
  },
): Promise<string | null> {
  const { secret, ...row } = item;
  const payload = secret === undefined ? row.payload : { ...row.payload, [SEALED]: seal(secret) };
  const [stored] = await db
    .insert(outbox)
    .values({ ...row, payload })
    .onConflictDoNothing({ target: outbox.idempotencyKey })
    .returning({ id: outbox.id });
  return stored?.id ?? null;
}

/**
 * A row's payload without its sealed part, and that part opened (undefined when there is none). Throws when it was
 * sealed with another key (AUTH_SECRET changed) or altered.
 */
export function openPayload(payload: Record<string, unknown>): {
  payload: Record<string, unknown>;
  secret: unknown;
} {
  const { [SEALED]: sealed, ...rest } = payload;
  return { payload: rest, secret: typeof sealed === "string" ? unseal(sealed) : undefined };
}

const withoutSealed = sql`${outbox.payload} - ${SEALED}`;

/** A secret that cannot be opened reaches the handler as none: a handler that needs one fails the message. */
function openedForDelivery(row: OutboxRow) {
  try {
    return openPayload(row.payload);
  } catch (error) {
    logger.warn({ outboxId: row.id, kind: row.kind, err: error }, "outbox secret cannot be opened");
    const { [SEALED]: _sealed, ...payload } = row.payload;
    return { payload, secret: undefined };
  }
}

/** Exponential backoff: 5 s, 10 s, 20 s … capped at 30 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30 * 60_000, 5_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Delivers what is due. Rows are claimed with FOR UPDATE SKIP LOCKED inside a transaction, so several instances
 * never deliver the same row twice; each outcome (sent, retry later, failed for good) is recorded.
 *
 * A claim is a lease, and the batch is delivered one row at a time: with slow deliveries (each SMTP stage may take
 * up to its timeout) the lease of the last rows can run out while the first are still being delivered, and another
 * instance then claims them. The claim's attempt count is the fence: each row's lease is renewed right before its
 * delivery only if nobody claimed it since, otherwise the row is left to its new owner.
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
      // Insertion order breaks ties: rows of one transaction share their due time (see `outbox.seq`).
      .orderBy(asc(outbox.nextAttemptAt), asc(outbox.seq))
      .limit(BATCH_SIZE)
      .for("update", { skipLocked: true });
    if (due.length > 0) {
      // Push them out of reach while we deliver; a crash mid-delivery retries them after the lease.
      await tx
        .update(outbox)
        .set({
          nextAttemptAt: new Date(now.getTime() + OUTBOX_LEASE_MS),
          attempts: sql`${outbox.attempts} + 1`,
        })
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
    const stillOurs = and(eq(outbox.id, row.id), eq(outbox.status, "pending"), eq(outbox.attempts, attempts));
    const [renewed] = await db
      .update(outbox)
      .set({ nextAttemptAt: new Date(Date.now() + OUTBOX_LEASE_MS) })
      .where(stillOurs)
      .returning({ id: outbox.id });
    if (!renewed) continue;
    try {
      const { payload, secret } = openedForDelivery(row);
      const via = await handlers[row.kind]!(payload, { id: row.id, attempts, secret });
      await db
        .update(outbox)
        .set({
          status: "sent",
          sentAt: new Date(),
          deliveredVia: via,
          lastError: null,
          ...(via === KEPT_IN_THE_ROW ? {} : { payload: withoutSealed }),
        })
        .where(eq(outbox.id, row.id));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const failed = attempts >= OUTBOX_MAX_ATTEMPTS || error instanceof PermanentDeliveryError;
      // The vendor's "not before" (a Retry-After longer than the client waits in process) wins over our backoff.
      const notBeforeMs = isIntegrationError(error) ? (error.retryAfterMs ?? 0) : 0;
      logger.warn(
        { outboxId: row.id, kind: row.kind, attempts, failed, err: message },
        "outbox delivery failed",
      );
      // Only while still ours: if another instance claimed the row meanwhile, its outcome stands (it may be sent).
      await db
        .update(outbox)
        .set({
          status: failed ? "failed" : "pending",
          lastError: message.slice(0, 1000),
          nextAttemptAt: new Date(Date.now() + Math.max(retryDelayMs(attempts), notBeforeMs)),
          ...(failed ? { payload: withoutSealed } : {}),
        })
        .where(stillOurs);
    }
  }
  return claimed.length;
}
