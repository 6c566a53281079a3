import { desc, eq, and, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { outbox, whatsAppMessages } from "~/db/schema";
import { restoreSecrets, type TemplateSecrets } from "~/domain/whatsapp-templates";
import { openPayload } from "~/features/outbox/outbox.server";

/**
 * What a queued message will say when it is sent, for tests that do not deliver it: the stored row (secrets
 * redacted) with the secrets opened from its outbox row, as the worker's handler does. Nothing else can read them.
 */

/** The template placeholders WhatsApp message `id` will be sent with. */
export async function placeholdersToSend(id: string): Promise<string[]> {
  const db = await getDb();
  const [[message], [row]] = await Promise.all([
    db.select().from(whatsAppMessages).where(eq(whatsAppMessages.id, id)),
    db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.id, id)),
  ]);
  if (!message?.templateName || !row) throw new Error(`no queued template message ${id}`);
  const { secret } = openPayload(row.payload);
  const placeholders = restoreSecrets(
    message.templateName,
    message.templatePlaceholders ?? [],
    (secret as { placeholders?: TemplateSecrets } | undefined)?.placeholders,
  );
  if (!placeholders) throw new Error(`the secrets of message ${id} are gone (sent already?)`);
  return placeholders;
}

/** The text of the newest queued e-mail to `to` whose subject starts with `subject`, as it will be sent. */
export async function mailTextToSend(to: string, subject: string): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, "email"),
        sql`${outbox.payload}->>'to' = ${to}`,
        sql`${outbox.payload}->>'subject' like ${`${subject}%`}`,
      ),
    )
    .orderBy(desc(outbox.createdAt), desc(outbox.seq))
    .limit(1);
  if (!row) throw new Error(`no e-mail to ${to}`);
  const { payload, secret } = openPayload(row.payload);
  return String((secret as { text?: unknown } | undefined)?.text ?? payload.text ?? "");
}
