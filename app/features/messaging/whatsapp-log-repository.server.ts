import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox, whatsAppMessages } from "~/db/schema";

/** The columns the staff pages show (never the whole row to a route). */
const listed = {
  id: whatsAppMessages.id,
  purpose: whatsAppMessages.purpose,
  toPhone: whatsAppMessages.toPhone,
  kind: whatsAppMessages.kind,
  text: whatsAppMessages.text,
  templateName: whatsAppMessages.templateName,
  templatePlaceholders: whatsAppMessages.templatePlaceholders,
  testMode: whatsAppMessages.testMode,
  providerMessageId: whatsAppMessages.providerMessageId,
  status: whatsAppMessages.status,
  error: whatsAppMessages.error,
  createdAt: whatsAppMessages.createdAt,
  acceptedAt: whatsAppMessages.acceptedAt,
  deliveredAt: whatsAppMessages.deliveredAt,
  failedAt: whatsAppMessages.failedAt,
};

export type ListedMessage = Pick<typeof whatsAppMessages.$inferSelect, keyof typeof listed>;

/** The outbox ids already stored under these idempotency keys (a repeated send answers the first one's ids). */
export async function outboxIdsByKey(db: Database, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ id: outbox.id, key: outbox.idempotencyKey })
    .from(outbox)
    .where(inArray(outbox.idempotencyKey, keys));
  return new Map(rows.map((row) => [row.key, row.id]));
}

/** Messages by id with their outbox delivery state (attempts and the last transient error while it retries). */
export async function messagesWithDelivery(db: Database, ids: string[], purpose: string) {
  if (ids.length === 0) return [];
  return db
    .select({
      ...listed,
      outboxStatus: outbox.status,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
    })
    .from(whatsAppMessages)
    .leftJoin(outbox, eq(outbox.id, whatsAppMessages.id))
    .where(and(inArray(whatsAppMessages.id, ids), eq(whatsAppMessages.purpose, purpose)));
}

/**
 * The latest calls of one purpose's messages, newest first: a call's time is when the provider answered (accepted
 * or failed), else when it was queued. The two messages of one send share their queue time, not their call time.
 */
export async function latestCallsOfPurpose(
  db: Database,
  purpose: string,
  limit: number,
): Promise<ListedMessage[]> {
  const callTime = sql`coalesce(${whatsAppMessages.failedAt}, ${whatsAppMessages.acceptedAt}, ${whatsAppMessages.createdAt})`;
  return db
    .select(listed)
    .from(whatsAppMessages)
    .where(eq(whatsAppMessages.purpose, purpose))
    .orderBy(desc(callTime), desc(whatsAppMessages.createdAt), desc(whatsAppMessages.id))
    .limit(limit);
}

export interface MessageQuery {
  status?: string;
  purpose?: string;
  /** Digits with the country code, as stored. */
  toPhone?: string;
  /** The id of the last row of the previous page (keyset: older than that row). */
  after?: string;
  limit: number;
}

/**
 * One page of messages, newest first, keyset-paginated on (created_at, id). The cursor row's own timestamp is read
 * by the database (microseconds; a JavaScript Date would round it to milliseconds and skip or repeat rows).
 */
export async function listMessages(db: Database, query: MessageQuery): Promise<ListedMessage[]> {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(whatsAppMessages.status, query.status));
  if (query.purpose) conditions.push(eq(whatsAppMessages.purpose, query.purpose));
  if (query.toPhone) conditions.push(eq(whatsAppMessages.toPhone, query.toPhone));
  if (query.after) {
    conditions.push(
      sql`(${whatsAppMessages.createdAt}, ${whatsAppMessages.id}) < (select c.created_at, c.id from whatsapp_messages c where c.id = ${query.after})`,
    );
  }
  return db
    .select(listed)
    .from(whatsAppMessages)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(whatsAppMessages.createdAt), desc(whatsAppMessages.id))
    .limit(query.limit);
}
