import type { Database } from "~/db/client.server";
import { enqueue } from "~/features/outbox/outbox.server";
import type { EmailContent } from "~/integrations/smtp/mailer.server";

/**
 * Queues an e-mail whose body carries a secret (a one-time code, a single-use link): the row keeps the address and
 * subject only; the body waits sealed and is dropped once sent or failed for good (ADR 029). The idempotency key
 * must not contain the secret either. Answers the new row's id, or null when the key was already there.
 */
export function enqueueSecretEmail(
  db: Pick<Database, "insert">,
  input: { idempotencyKey: string; to: string; content: EmailContent },
): Promise<string | null> {
  const { subject, text, html } = input.content;
  return enqueue(db, {
    kind: "email",
    idempotencyKey: input.idempotencyKey,
    payload: { to: input.to, subject },
    secret: { text, html },
  });
}

/** Queues an e-mail with nothing secret in it (a booking confirmation): the whole message is kept in the row. */
export function enqueueEmail(
  db: Pick<Database, "insert">,
  input: { idempotencyKey: string; to: string; content: EmailContent },
): Promise<string | null> {
  return enqueue(db, {
    kind: "email",
    idempotencyKey: input.idempotencyKey,
    payload: { to: input.to, ...input.content },
  });
}
