import { getDb, type Database } from "~/db/client.server";
import { fileWhatsAppMessage, lockSenders } from "~/features/leads/lead-service.server";
import { normalizeWhatsAppNumber } from "~/integrations/whatsapp/phone";
import {
  parseInfobipDate,
  whatsAppInboundSchema,
  type WhatsAppInbound,
} from "~/integrations/whatsapp/whatsapp-schemas";
import { clinicFacts, env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { fileInboundUnderLead, insertInboundOnce, touchContact } from "./whatsapp-repository.server";

/** Infobip's inbound body, or null when it is not one. */
export function parseWhatsAppInbound(body: unknown): WhatsAppInbound | null {
  const parsed = whatsAppInboundSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** The clinic's own numbers (its WhatsApp mobile, the business sender): they write, but they are not leads. */
function clinicNumbers(): Set<string> {
  const current = env();
  return new Set(
    [clinicFacts(current).mobile, current.WHATSAPP_SENDER]
      .map((number) => (number ? normalizeWhatsAppNumber(number) : null))
      .filter((number): number is string => number !== null),
  );
}

/** What a message says, for the lead and its history; a message without text says what it was. */
function textOf(message: WhatsAppInbound["results"][number]["message"]): string {
  if (message.type === "TEXT" && "text" in message && typeof message.text === "string") return message.text;
  return `(mensaje de WhatsApp sin texto: ${message.type.toLowerCase()})`;
}

/** A batch's senders in E.164 (the clinic's own numbers file no lead, so they are left out). */
function batchSenders(inbound: WhatsAppInbound, ownNumbers: ReadonlySet<string>): string[] {
  return inbound.results
    .map((result) => normalizeWhatsAppNumber(result.from))
    .filter((from): from is string => from !== null && !ownNumbers.has(from))
    .map((from) => `+${from}`);
}

export interface InboundOutcome {
  received: number;
  /** Messages stored now (a replayed one is not). */
  recorded: number;
  leadsCreated: number;
}

/**
 * Files the provider's inbound messages (issue 9), in one transaction: each message once (keyed by its messageId,
 * so a replay changes nothing), the sender's last inbound time (their 24-hour customer-care window), and the
 * message in the latest lead with that number, or a new lead (source `whatsapp`) with its two WhatsApp messages.
 * The clinic's own numbers only open their window. A time stamped in the future counts as now.
 */
export async function receiveWhatsAppInbound(
  inbound: WhatsAppInbound,
  options: { db?: Database; now?: Date } = {},
): Promise<InboundOutcome> {
  const db = options.db ?? (await getDb());
  const now = options.now ?? new Date();
  const ownNumbers = clinicNumbers();
  const outcome: InboundOutcome = { received: inbound.results.length, recorded: 0, leadsCreated: 0 };

  await db.transaction(async (tx) => {
    // Every sender's contact lock, up front and sorted (issue 13): two webhooks at once with the same senders in
    // another order ([X, Y] and [Y, X]) then wait for each other instead of deadlocking on PostgreSQL. The
    // per-message lock in `fileWhatsAppMessage` is then already held (advisory locks are re-entrant).
    await lockSenders(tx, batchSenders(inbound, ownNumbers));
    for (const result of inbound.results) {
      const from = normalizeWhatsAppNumber(result.from);
      if (!from) {
        logger.warn({ messageId: result.messageId }, "whatsapp inbound message ignored: not a number");
        continue;
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
      if (id === null) continue;
      outcome.recorded += 1;
      await touchContact(tx, { phone: from, at, contactName });
      if (ownNumbers.has(from)) continue;
      const filed = await fileWhatsAppMessage(tx, {
        phone: `+${from}`,
        contactName,
        text,
        at,
        inboundMessageId: id,
      });
      await fileInboundUnderLead(tx, id, filed.leadId);
      if (filed.created) outcome.leadsCreated += 1;
    }
  });
  return outcome;
}
