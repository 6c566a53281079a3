import { and, asc, eq, getTableColumns, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { outboxOrderingKey, runBounded } from "~/domain/outbox-order";
import { isIntegrationError } from "~/integrations/http.server";
import { groupCommit } from "~/lib/base/group-commit";
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
/**
 * Deliveries in flight at once per instance (issue 25): lanes of different recipients go out side by side. One claim
 * takes at most this many rows (each the head of its ordering key, or a row without one), all sent at once.
 */
export const OUTBOX_CONCURRENCY = 32;
/** A lane hands its key back after this many rows in a row, so one busy recipient cannot hold a lane forever. */
const LANE_MAX_ROWS = 50;
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
    /**
     * Rows with the same key are delivered one after another, in the order they were queued (domain/outbox-order.ts);
     * an e-mail's key is its address unless given. Null: no order with any other row.
     */
    orderingKey?: string | null;
  },
): Promise<string | null> {
  const { secret, orderingKey, ...row } = item;
  const payload = secret === undefined ? row.payload : { ...row.payload, [SEALED]: seal(secret) };
  const key =
    orderingKey !== undefined
      ? orderingKey
      : row.kind === "email" && typeof row.payload.to === "string"
        ? outboxOrderingKey("email", row.payload.to)
        : null;
  const [stored] = await db
    .insert(outbox)
    .values({ ...row, payload, orderingKey: key })
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
 * Claims due rows with FOR UPDATE SKIP LOCKED and pushes them out of other workers' reach for the lease. Only the
 * head of each ordering key is taken: a row whose key has an earlier row still pending (queued, leased elsewhere or
 * waiting for a retry) waits for it, so one recipient's messages keep their order across instances.
 */
async function claim(
  db: Database,
  kinds: string[],
  now: Date,
  limit: number,
  onlyKey?: string,
): Promise<ClaimedRow[]> {
  const headOfItsKey: SQL = sql`(${outbox.orderingKey} is null or not exists (
    select 1 from outbox earlier
    where earlier.ordering_key = ${outbox.orderingKey} and earlier.status = 'pending' and earlier.seq < ${outbox.seq}))`;
  return db.transaction(async (tx) => {
    const due = await tx
      .select({
        ...getTableColumns(outbox),
        // Whether the lane should go on with this key once the row is out (saves a claim per lone row).
        // Spelled out: in a select list Drizzle writes a column without its table, which the subquery would take
        // for its own.
        hasNext: sql<boolean>`(outbox.ordering_key is not null and exists (
          select 1 from outbox later
          where later.ordering_key = outbox.ordering_key and later.status = 'pending' and later.seq > outbox.seq))`,
      })
      .from(outbox)
      .where(
        and(
          eq(outbox.status, "pending"),
          lte(outbox.nextAttemptAt, now),
          inArray(outbox.kind, kinds),
          onlyKey === undefined ? undefined : eq(outbox.orderingKey, onlyKey),
          headOfItsKey,
        ),
      )
      // Insertion order breaks ties: rows of one transaction share their due time (see `outbox.seq`).
      .orderBy(asc(outbox.nextAttemptAt), asc(outbox.seq))
      .limit(limit)
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
}

type Outcome = "sent" | "failed" | "retry";

/** A delivered row's record: how it went out, and whether its sealed secret stays (a dev-outbox e-mail). */
interface SentRecord {
  id: string;
  via: string;
  sentAt: Date;
}

/** Marks delivered rows sent in one statement; a sent row keeps no sealed secret unless it is its own delivery. */
async function markSent(db: Database, records: readonly SentRecord[]): Promise<void> {
  const rows = sql.join(
    records.map(
      (record) => sql`(${record.id}::uuid, ${record.via}::text, ${record.sentAt.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  // The key only orders what is pending; a sent row keeps no trace of its recipient in it.
  await db.execute(sql`
    update outbox set
      status = 'sent',
      sent_at = delivered.sent_at,
      delivered_via = delivered.via,
      last_error = null,
      ordering_key = null,
      payload = case when delivered.via = ${KEPT_IN_THE_ROW} then outbox.payload else outbox.payload - ${SEALED} end
    from (values ${rows}) as delivered (id, via, sent_at)
    where outbox.id = delivered.id`);
}

type ClaimedRow = OutboxRow & { hasNext: boolean };

/**
 * Delivers one claimed row and records how it went. The claim's attempt count is the fence for a failure: a retry
 * or a failure for good is recorded only if nobody claimed the row since.
 */
async function deliverOne(
  db: Database,
  handlers: Record<string, OutboxHandler>,
  row: OutboxRow,
  recordSent: (record: SentRecord) => Promise<void>,
): Promise<Outcome> {
  const attempts = row.attempts + 1;
  const stillOurs = and(eq(outbox.id, row.id), eq(outbox.status, "pending"), eq(outbox.attempts, attempts));
  // No lease renewal: a row is delivered the moment it is claimed (a claim takes no more rows than can go out at
  // once, and a lane claims its next row right before sending it), so the lease set by the claim is the one that
  // counts. Another instance takes the row only once that lease has run out (a delivery still under way after 60 s,
  // whose row may then go out twice: at least once); the outcome below is then recorded only if the row is still ours.
  try {
    const { payload, secret } = openedForDelivery(row);
    const via = await handlers[row.kind]!(payload, { id: row.id, attempts, secret });
    await recordSent({ id: row.id, via, sentAt: new Date() });
    return "sent";
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
        ...(failed ? { payload: withoutSealed, orderingKey: null } : {}),
      })
      .where(stillOurs);
    return failed ? "failed" : "retry";
  }
}

/**
 * Delivers what is due, in parallel across ordering keys (at most `concurrency` deliveries at once) and in order
 * within one. Rows are claimed with FOR UPDATE SKIP LOCKED inside a transaction, so several instances never deliver
 * the same row twice; each outcome (sent, retry later, failed for good) is recorded. Each claimed row starts a lane:
 * once it is sent (or failed for good), the lane claims the next due row of its key, so a recipient's queue drains
 * without waiting for the next poll; a retry ends the lane, and the key waits for it. Answers how many rows were
 * claimed.
 */
export async function deliverDue(
  db: Database,
  handlers: Record<string, OutboxHandler>,
  now = new Date(),
  options: { concurrency?: number } = {},
): Promise<number> {
  const kinds = Object.keys(handlers);
  const concurrency = Math.max(1, options.concurrency ?? OUTBOX_CONCURRENCY);
  const heads = await claim(db, kinds, now, concurrency);
  let claimed = heads.length;
  // Deliveries that end together are recorded in one statement; each still waits for its own row (ADR 051).
  const recordSent = groupCommit((records: SentRecord[]) => markSent(db, records));
  await runBounded(heads, concurrency, async (head) => {
    let row: ClaimedRow | undefined = head;
    for (let delivered = 0; row; delivered += 1) {
      const outcome = await deliverOne(db, handlers, row, recordSent);
      if (outcome === "retry" || !row.hasNext || row.orderingKey === null) return;
      if (delivered + 1 >= LANE_MAX_ROWS) return;
      [row] = await claim(db, kinds, now, 1, row.orderingKey);
      if (row) claimed += 1;
    }
  });
  return claimed;
}
