import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { whatsAppMessages } from "~/db/schema";
import { statusesBefore } from "~/domain/whatsapp-message-status";

export type WhatsAppMessageRow = typeof whatsAppMessages.$inferSelect;
export type NewWhatsAppMessage = typeof whatsAppMessages.$inferInsert;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function insertQueuedMessage(db: Pick<Database, "insert">, row: NewWhatsAppMessage) {
  await db.insert(whatsAppMessages).values({ ...row, status: "queued" });
}

export async function findMessage(db: Database, id: string): Promise<WhatsAppMessageRow | undefined> {
  const [row] = await db.select().from(whatsAppMessages).where(eq(whatsAppMessages.id, id));
  return row;
}

/**
 * Accepted by the provider. Also when a report got here first (the id is ours, so a delivery report can arrive
 * before the send's answer is recorded): the provider's id and the time are kept, the status only moves forward.
 */
export async function recordAccepted(
  db: Database,
  id: string,
  accepted: { providerMessageId: string; testMode: boolean; at: Date },
) {
  await db
    .update(whatsAppMessages)
    .set({
      providerMessageId: accepted.providerMessageId,
      testMode: accepted.testMode,
      acceptedAt: sql`coalesce(${whatsAppMessages.acceptedAt}, ${accepted.at.toISOString()}::timestamptz)`,
      status: sql`case when ${whatsAppMessages.status} = 'queued' then 'accepted' else ${whatsAppMessages.status} end`,
    })
    .where(eq(whatsAppMessages.id, id));
}

/** The report's messageId is ours (the row's id) or, for a message sent some other way, the provider's. */
function byMessageId(messageId: string): SQL {
  const provider = eq(whatsAppMessages.providerMessageId, messageId);
  // A text that is not a uuid cannot be compared with the uuid column (PostgreSQL refuses the cast).
  return UUID.test(messageId)
    ? (or(eq(whatsAppMessages.id, messageId.toLowerCase()), provider) as SQL)
    : provider;
}

/** Moves a message forward to `status`; a message already there or beyond is left alone. Answers whether it moved. */
export async function advanceStatus(
  db: Database,
  match: { id: string } | { messageId: string },
  status: "delivered" | "read" | "failed",
  at: Date,
  error?: string,
): Promise<boolean> {
  const stamp =
    status === "delivered"
      ? { deliveredAt: at }
      : status === "read"
        ? // A seen report implies delivery, also when the delivery report is late or lost.
          {
            readAt: at,
            deliveredAt: sql`coalesce(${whatsAppMessages.deliveredAt}, ${at.toISOString()}::timestamptz)`,
          }
        : { failedAt: at, error: error ?? null };
  const target = "id" in match ? eq(whatsAppMessages.id, match.id) : byMessageId(match.messageId);
  const moved = await db
    .update(whatsAppMessages)
    .set({ status, ...stamp })
    .where(and(target, inArray(whatsAppMessages.status, statusesBefore(status))))
    .returning({ id: whatsAppMessages.id });
  return moved.length > 0;
}
