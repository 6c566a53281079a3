import type { Database } from "~/db/client.server";
import { normalizeWhatsAppNumber } from "~/integrations/whatsapp/phone";
import {
  parseInfobipDate,
  whatsAppInboundEnvelopeSchema,
  whatsAppInboundResultSchema,
  type WhatsAppInboundResult,
} from "~/integrations/whatsapp/whatsapp-schemas";
import { clinicFacts, env } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { insertInboundOnce, touchContact } from "./whatsapp-repository.server";

export { fileInboundUnderLead } from "./whatsapp-repository.server";

/*
 * The messaging side of Infobip's inbound webhook: parsing a batch, and storing each message once with its
 * sender's 24-hour window. What a message means for the clinic (a lead, or a lead's history) is
 * features/leads/whatsapp-inbound-service.server.ts's.
 */

/** A batch's usable messages, and how many it had that were not (each logged and left out). */
export interface InboundBatch {
  results: WhatsAppInboundResult[];
  skipped: number;
}

/** A provider id fit for the log: a short string without control characters, else nothing. */
function loggableId(raw: unknown): string | undefined {
  const id = raw && typeof raw === "object" && "messageId" in raw ? raw.messageId : undefined;
  // oxlint-disable-next-line no-control-regex -- keeping control characters out of the log is the point
  return typeof id === "string" && !/[\u0000-\u001f]/.test(id) ? id.slice(0, 100) : undefined;
}

/**
 * Infobip's inbound body, each message checked on its own: a message that is not one we can store (a
 * missing field, a NUL character…) is left out and logged, and its siblings go on. Null when the body is not a
 * batch, or when it has messages and none is usable.
 */
export function parseWhatsAppInbound(body: unknown): InboundBatch | null {
  const envelope = whatsAppInboundEnvelopeSchema.safeParse(body);
  if (!envelope.success) return null;
  const results: WhatsAppInboundResult[] = [];
  for (const raw of envelope.data.results) {
    const parsed = whatsAppInboundResultSchema.safeParse(raw);
    if (parsed.success) {
      results.push(parsed.data);
      continue;
    }
    // Where it was wrong, never what it said.
    const problems = parsed.error.issues.map((issue) => issue.path.join(".") || issue.message);
    logger.warn(
      { messageId: loggableId(raw), problems },
      "whatsapp inbound message skipped: not a valid message",
    );
  }
  const skipped = envelope.data.results.length - results.length;
  if (results.length === 0 && skipped > 0) return null;
  return { results, skipped };
}

/** The clinic's own numbers (its WhatsApp mobile, the business sender): they write, but they are not leads. */
export function clinicWhatsAppNumbers(): Set<string> {
  const current = env();
  return new Set(
    [clinicFacts(current).mobile, current.WHATSAPP_SENDER]
      .map((number) => (number ? normalizeWhatsAppNumber(number) : null))
      .filter((number): number is string => number !== null),
  );
}

/** What a message says, for the lead and its history; a message without text says what it was. */
function textOf(message: WhatsAppInboundResult["message"]): string {
  if (message.type === "TEXT" && "text" in message && typeof message.text === "string") return message.text;
  return `(mensaje de WhatsApp sin texto: ${message.type.toLowerCase()})`;
}

/** A batch's senders in E.164 (the clinic's own numbers file no lead, so they are left out). */
export function batchSenders(
  results: readonly WhatsAppInboundResult[],
  ownNumbers: ReadonlySet<string>,
): string[] {
  return results
    .map((result) => normalizeWhatsAppNumber(result.from))
    .filter((from): from is string => from !== null && !ownNumbers.has(from))
    .map((from) => `+${from}`);
}

/** A message just stored: who wrote (E.164), what it says, and whether the sender is one of the clinic's numbers. */
export interface StoredInboundMessage {
  /** `whatsapp_inbound_messages.id`. */
  id: string;
  /** The sender in E.164 (`+56912345678`), as leads store phones. */
  phone: string;
  contactName: string | null;
  text: string;
  at: Date;
  fromClinic: boolean;
}

/**
 * Stores one inbound message in the caller's transaction, keyed by its messageId, and moves the sender's last
 * inbound time (their 24-hour customer-care window). Null when the sender is not a number or the message was
 * already stored (a replay). A time stamped in the future counts as now.
 */
export async function recordInboundMessage(
  tx: Database,
  result: WhatsAppInboundResult,
  ownNumbers: ReadonlySet<string>,
  now: Date,
): Promise<StoredInboundMessage | null> {
  const from = normalizeWhatsAppNumber(result.from);
  if (!from) {
    logger.warn({ messageId: result.messageId }, "whatsapp inbound message ignored: not a number");
    return null;
  }
  const sentAt = parseInfobipDate(result.receivedAt) ?? now;
  const at = sentAt.getTime() > now.getTime() ? now : sentAt;
  const text = textOf(result.message);
  const contactName = result.contact?.name?.trim() || null;
  const id = await insertInboundOnce(tx, {
    providerMessageId: result.messageId,
    fromPhone: from,
    toPhone: normalizeWhatsAppNumber(result.to) ?? result.to,
    type: result.message.type,
    text: result.message.type === "TEXT" ? text : null,
    contactName,
    receivedAt: at,
  });
  if (id === null) return null;
  await touchContact(tx, { phone: from, at, contactName });
  return { id, phone: `+${from}`, contactName, text, at, fromClinic: ownNumbers.has(from) };
}
