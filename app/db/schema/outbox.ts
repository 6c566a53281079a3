import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Outbound side effects (e-mail now; WhatsApp and Dentalink later), written in the transaction of the business
 * row and delivered by the outbox worker with retries (DESIGN §4).
 */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    deliveredVia: text("delivered_via"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Insertion order. Rows written in one transaction share `next_attempt_at` (now() is the transaction's start),
     * so the worker claims by due time, then by this: a lead's advisor notice goes out before the patient's
     * confirmation written after it (ADR 020).
     */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /**
     * Rows with the same key are delivered one after another in `seq` order (one recipient's messages, one
     * appointment's Dentalink writes); rows with different keys, or none, go out in parallel (issue 25). A hash, not
     * the address itself (domain/outbox-order.ts).
     */
    orderingKey: text("ordering_key"),
  },
  (table) => [
    index("outbox_due_idx").on(table.status, table.nextAttemptAt),
    // The claim's order (due time, then insertion): walked in order, the claim stops at its first heads instead of
    // checking and sorting every pending row (10 ms per claim with 1,000 pending, growing with the backlog; ADR 051).
    index("outbox_pending_due_seq_idx")
      .on(table.nextAttemptAt, table.seq)
      .where(sql`${table.status} = 'pending'`),
    // The Overview's backlog line: the oldest pending item (ADR 026).
    index("outbox_pending_created_idx")
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending'`),
    // The claim's "is an earlier row of this key still pending?" check.
    index("outbox_pending_order_idx")
      .on(table.orderingKey, table.seq)
      .where(sql`${table.status} = 'pending' and ${table.orderingKey} is not null`),
    check("outbox_status_values", sql`${table.status} in ('pending', 'sent', 'failed')`),
  ],
);
