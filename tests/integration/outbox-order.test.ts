import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { outboxOrderingKey } from "~/domain/outbox-order";
import { deliverDue, enqueue, type OutboxHandler } from "~/features/outbox/outbox.server";

// Issue 25: the outbox delivers in parallel across recipients, in order within one, exactly once with two workers.

afterAll(closeDb);

const RECIPIENTS = 6;
const PER_RECIPIENT = 8;

/** Queues PER_RECIPIENT rows for each recipient, interleaved, as a morning's reminders and confirmations would be. */
async function queueInterleaved(kind: string) {
  const db = await getDb();
  for (let round = 0; round < PER_RECIPIENT; round += 1) {
    for (let recipient = 0; recipient < RECIPIENTS; recipient += 1) {
      await enqueue(db, {
        kind,
        idempotencyKey: `${kind}:${recipient}:${round}`,
        payload: { recipient: String(recipient), round },
        orderingKey: outboxOrderingKey("whatsapp", `5691000000${recipient}`),
      });
    }
  }
  // Due now by this process's clock (the column's default is the database's now()).
  await db
    .update(outbox)
    .set({ nextAttemptAt: new Date(Date.now() - 1000) })
    .where(eq(outbox.kind, kind));
}

/** A handler whose calls take different times (a slow provider answer for some), recording order and overlap. */
function recordingHandler(
  log: Array<{ recipient: string; round: number }>,
  gauge: { now: number; peak: number },
) {
  const handler: OutboxHandler = async (payload) => {
    gauge.now += 1;
    gauge.peak = Math.max(gauge.peak, gauge.now);
    const round = Number(payload.round);
    // The first rows of some recipients are slow: a later row must still wait for them.
    await new Promise((resolve) => setTimeout(resolve, (round * 7 + Number(payload.recipient) * 3) % 11));
    log.push({ recipient: String(payload.recipient), round });
    gauge.now -= 1;
    return "test";
  };
  return handler;
}

describe("outbox order and concurrency", () => {
  it("two workers at once deliver every row exactly once, each recipient's rows in the order queued, in parallel", async () => {
    const kind = "order-two-workers";
    await queueInterleaved(kind);
    const db = await getDb();
    const log: Array<{ recipient: string; round: number }> = [];
    const gauge = { now: 0, peak: 0 };
    const handler = recordingHandler(log, gauge);
    // Two instances' workers, each polling until nothing is due.
    const worker = async () => {
      while ((await deliverDue(db, { [kind]: handler })) > 0) {
        // keep going while there is work
      }
    };
    await Promise.all([worker(), worker()]);

    expect(log).toHaveLength(RECIPIENTS * PER_RECIPIENT);
    for (let recipient = 0; recipient < RECIPIENTS; recipient += 1) {
      const rounds = log.filter((entry) => entry.recipient === String(recipient)).map((entry) => entry.round);
      expect({ recipient, rounds }).toEqual({ recipient, rounds: [...Array(PER_RECIPIENT).keys()] });
    }
    // Several recipients' messages were in flight at once.
    expect(gauge.peak).toBeGreaterThan(1);
    const rows = await db.select().from(outbox).where(eq(outbox.kind, kind));
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
    // A sent row keeps no key derived from its recipient.
    expect(rows.every((row) => row.orderingKey === null)).toBe(true);
  });

  it("a recipient's row waiting for a retry holds back that recipient's later rows, not anyone else's", async () => {
    const kind = "order-retry";
    const db = await getDb();
    const keyA = outboxOrderingKey("email", "a@ejemplo.cl");
    const keyB = outboxOrderingKey("email", "b@ejemplo.cl");
    for (const [index, key] of [keyA, keyA, keyB].entries()) {
      await enqueue(db, { kind, idempotencyKey: `${kind}:${index}`, payload: { index }, orderingKey: key });
    }
    await db
      .update(outbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(outbox.kind, kind));
    const delivered: number[] = [];
    const handlers: Record<string, OutboxHandler> = {
      [kind]: async (payload) => {
        if (payload.index === 0) throw new Error("SMTP 451: try again later");
        delivered.push(Number(payload.index));
        return "test";
      },
    };
    await deliverDue(db, handlers);
    // A's first row failed and waits for its retry: A's second row is not sent before it; B's is.
    expect(delivered).toEqual([2]);
    const byIndex = async () =>
      (await db.select().from(outbox).where(eq(outbox.kind, kind)))
        .map((row) => [Number(row.payload.index), row.status] as const)
        .toSorted(([a], [b]) => a - b);
    expect(await byIndex()).toEqual([
      [0, "pending"],
      [1, "pending"],
      [2, "sent"],
    ]);

    // When the retry is due and succeeds, the rest of A follows in order.
    delivered.length = 0;
    handlers[kind] = async (payload) => (delivered.push(Number(payload.index)), "test");
    await deliverDue(db, handlers, new Date(Date.now() + 10 * 60_000));
    expect(delivered).toEqual([0, 1]);
  });

  it("an e-mail's key is its address unless the caller gives one, so one mailbox's e-mails keep their order", async () => {
    const db = await getDb();
    const id = await enqueue(db, {
      kind: "email",
      idempotencyKey: "order-email-key",
      payload: { to: "Paciente@Ejemplo.cl", subject: "Hola" },
    });
    const [row] = await db.select().from(outbox).where(eq(outbox.id, id!));
    expect(row?.orderingKey).toBe(outboxOrderingKey("email", "paciente@ejemplo.cl"));
  });
});
