import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { privacyRequestEvents } from "~/db/schema";
import { templateContent } from "~/domain/whatsapp-templates";
import { enqueueSecretEmail } from "~/features/email/email-outbox.server";
import { enqueueWhatsApp } from "~/features/messaging/whatsapp-outbox.server";
import { enqueue } from "~/features/outbox/outbox.server";
import { clinicFacts } from "~/lib/base/env.server";
import { requestReference, type PersonMessage } from "./request-messages";

/** The rights workflow's messages to the person, through the outbox in the caller's transaction. */

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!,
  );

/** The e-mail of a message: plain text and the same in simple HTML. */
export function emailContent(message: PersonMessage) {
  const clinic = clinicFacts();
  const link = message.action ? [`${message.action.label}: ${message.action.url}`, ""] : [];
  const text = [message.heading, "", ...message.paragraphs, "", ...link, clinic.name].join("\n");
  const button = message.action
    ? `<p><a href="${escapeHtml(message.action.url)}" style="display:inline-block;background:#0f766e;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(message.action.label)}</a></p>
<p style="font-size:13px;color:#475569">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(message.action.url)}</p>
`
    : "";
  const html = `<!doctype html><html lang="es-CL"><body style="font-family:Arial,sans-serif;color:#0f172a;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(message.heading)}</h1>
${message.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
${button}<p style="font-size:13px;color:#475569">${escapeHtml(clinic.name)} · ${escapeHtml(clinic.address)}</p>
</body></html>`;
  return { subject: message.subject, text, html };
}

export interface Recipient {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  userId: string | null;
}

/**
 * Tells the person: by e-mail when there is one, otherwise by WhatsApp (the approved template carries the text
 * outside the 24-hour window). The message is also written to the request's history.
 */
export async function queuePersonMessage(
  tx: Database,
  recipient: Recipient,
  message: PersonMessage,
  event: { key: string; actorId?: string | null },
): Promise<void> {
  let channel: "email" | "whatsapp";
  if (recipient.email) {
    channel = "email";
    await enqueue(tx, {
      kind: "email",
      idempotencyKey: `privacy-request:${recipient.id}:${event.key}`,
      payload: { to: recipient.email, ...emailContent(message) },
    });
  } else if (recipient.phone) {
    channel = "whatsapp";
    const text = [message.heading, ...message.paragraphs].join("\n\n");
    await enqueueWhatsApp(tx, {
      purpose: "privacy-request",
      to: recipient.phone,
      text,
      template: templateContent("privacyRequestNotice", [
        recipient.name.split(" ")[0] ?? recipient.name,
        requestReference(recipient.id),
        message.paragraphs.join(" "),
      ]),
      userId: recipient.userId ?? undefined,
      idempotencyKey: `privacy-request:${recipient.id}:${event.key}`,
    });
  } else {
    return;
  }
  await tx.insert(privacyRequestEvents).values({
    requestId: recipient.id,
    kind: "message_sent",
    text: message.subject,
    actorId: event.actorId ?? null,
    details: { channel, about: event.key },
    at: sql`clock_timestamp()`,
  });
}

/** The single-use confirmation link, e-mailed; the row keeps no secret (ADR 029). */
export async function queueVerificationLink(tx: Database, to: string, message: PersonMessage): Promise<void> {
  await enqueueSecretEmail(tx, {
    idempotencyKey: `privacy-verification:${randomUUID()}`,
    to,
    content: emailContent(message),
  });
}

/** The 6-digit code by WhatsApp, as the authentication template (the code is a secret placeholder). */
export async function queueVerificationCode(
  tx: Database,
  input: { to: string; code: string; requestId: string },
): Promise<void> {
  await enqueueWhatsApp(tx, {
    purpose: "privacy-request",
    to: input.to,
    template: templateContent("privacyRequestCode", [input.code]),
    idempotencyKey: `privacy-verification:${input.requestId}:${randomUUID()}`,
  });
}

/** An e-mail to the clinic's privacy contact (the daily digest). */
export async function queueClinicEmail(
  tx: Pick<Database, "insert">,
  input: { idempotencyKey: string; message: PersonMessage },
): Promise<string | null> {
  return enqueue(tx, {
    kind: "email",
    idempotencyKey: input.idempotencyKey,
    payload: { to: clinicFacts().privacyEmail, ...emailContent(input.message) },
  });
}
