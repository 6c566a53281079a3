import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, whatsAppContacts, whatsAppInboundMessages, whatsAppMessages } from "~/db/schema";
import type { WhatsAppSendKind } from "~/domain/whatsapp-window";
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

/** The message and when its number last wrote to the clinic (the 24-hour window), in one read for the send. */
export async function findMessageForSend(
  db: Database,
  id: string,
): Promise<{ message: WhatsAppMessageRow; lastInboundAt: Date | null } | undefined> {
  const [row] = await db
    .select({ message: whatsAppMessages, lastInboundAt: whatsAppContacts.lastInboundAt })
    .from(whatsAppMessages)
    .leftJoin(whatsAppContacts, eq(whatsAppContacts.phone, whatsAppMessages.toPhone))
    .where(eq(whatsAppMessages.id, id));
  return row ? { message: row.message, lastInboundAt: row.lastInboundAt ?? null } : undefined;
}

/** A message the provider accepted: our id, the provider's, whether it was test mode, and when. */
export interface AcceptedMessage {
  id: string;
  providerMessageId: string;
  testMode: boolean;
  at: Date;
}

/**
 * Accepted by the provider, several messages in one statement (the outbox's deliveries that end together, ADR 051).
 * Also when a report got here first (the id is ours, so a delivery report can arrive before the send's answer is
 * recorded): the provider's id and the time are kept, the status only moves forward.
 */
export async function recordAccepted(db: Database, accepted: readonly AcceptedMessage[]) {
  if (accepted.length === 0) return;
  const rows = sql.join(
    accepted.map(
      (message) =>
        sql`(${message.id}::uuid, ${message.providerMessageId}::text, ${message.testMode}::boolean, ${message.at.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    update whatsapp_messages set
      provider_message_id = accepted.provider_message_id,
      test_mode = accepted.test_mode,
      accepted_at = coalesce(whatsapp_messages.accepted_at, accepted.at),
      status = case when whatsapp_messages.status = 'queued' then 'accepted' else whatsapp_messages.status end
    from (values ${rows}) as accepted (id, provider_message_id, test_mode, at)
    where whatsapp_messages.id = accepted.id`);
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

/** The e-mail and phone of the lead a message answers (the person the consent check is about). */
export async function leadContacts(db: Pick<Database, "select">, leadId: string) {
  const [row] = await db
    .select({ email: leads.email, phone: leads.phone })
    .from(leads)
    .where(eq(leads.id, leadId))
    .limit(1);
  return row;
}

/** Which of its contents a message went out as (decided at send time by the 24-hour window). */
export async function recordSendKind(db: Database, id: string, kind: WhatsAppSendKind) {
  await db.update(whatsAppMessages).set({ kind }).where(eq(whatsAppMessages.id, id));
}

// ---- Inbound messages and the customer-care window ---------------------------------------------------------------

/** When `phone` (digits with the country code) last wrote to the clinic's number; null if never. */
export async function lastInboundAt(db: Database, phone: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: whatsAppContacts.lastInboundAt })
    .from(whatsAppContacts)
    .where(eq(whatsAppContacts.phone, phone));
  return row?.at ?? null;
}

/**
 * Records that `phone` wrote at `at`. The time only moves forward (messages may arrive out of order); the upsert
 * also locks the contact's row until the transaction ends, so two messages of one new number are filed one after
 * the other (the second finds the lead the first created).
 */
export async function touchContact(
  db: Pick<Database, "insert">,
  contact: { phone: string; at: Date; contactName?: string | null },
) {
  await db
    .insert(whatsAppContacts)
    .values({
      phone: contact.phone,
      lastInboundAt: contact.at,
      contactName: contact.contactName ?? null,
      createdAt: contact.at,
      updatedAt: contact.at,
    })
    .onConflictDoUpdate({
      target: whatsAppContacts.phone,
      set: {
        lastInboundAt: sql`greatest(${whatsAppContacts.lastInboundAt}, excluded.last_inbound_at)`,
        contactName: sql`coalesce(excluded.contact_name, ${whatsAppContacts.contactName})`,
        updatedAt: sql`now()`,
      },
    });
}

export type NewInboundMessage = typeof whatsAppInboundMessages.$inferInsert;

/** Stores an inbound message once: the new row's id, or null when its provider messageId was already stored. */
export async function insertInboundOnce(
  db: Pick<Database, "insert">,
  row: NewInboundMessage,
): Promise<string | null> {
  const [stored] = await db
    .insert(whatsAppInboundMessages)
    .values(row)
    .onConflictDoNothing({ target: whatsAppInboundMessages.providerMessageId })
    .returning({ id: whatsAppInboundMessages.id });
  return stored?.id ?? null;
}

export async function fileInboundUnderLead(db: Pick<Database, "update">, id: string, leadId: string) {
  await db.update(whatsAppInboundMessages).set({ leadId }).where(eq(whatsAppInboundMessages.id, id));
}
