import { getDb, type Database } from "~/db/client.server";
import {
  batchSenders,
  clinicWhatsAppNumbers,
  fileInboundUnderLead,
  recordInboundMessage,
  type InboundBatch,
} from "~/features/messaging/whatsapp-inbound.server";
import type { WhatsAppInboundResult } from "~/integrations/whatsapp/whatsapp-schemas";
import { logger } from "~/lib/base/logger.server";
import { fileWhatsAppMessage, lockSenders } from "./lead-service.server";

export interface InboundOutcome {
  received: number;
  /** Messages stored now (a replayed one is not). */
  recorded: number;
  leadsCreated: number;
  /** Messages left out as unusable (parseWhatsAppInbound). */
  skipped: number;
  /** Usable messages whose storing failed: the batch should be sent again (a replay stores only what is missing). */
  failed: number;
}

/** Stores one message, in the caller's (savepoint) transaction: whether it was new, and whether it made a lead. */
async function receiveOne(
  tx: Database,
  result: WhatsAppInboundResult,
  ownNumbers: ReadonlySet<string>,
  now: Date,
): Promise<{ recorded: boolean; leadCreated: boolean }> {
  const message = await recordInboundMessage(tx, result, ownNumbers, now);
  if (!message) return { recorded: false, leadCreated: false };
  if (message.fromClinic) return { recorded: true, leadCreated: false };
  const filed = await fileWhatsAppMessage(tx, {
    phone: message.phone,
    contactName: message.contactName,
    text: message.text,
    at: message.at,
    inboundMessageId: message.id,
  });
  await fileInboundUnderLead(tx, message.id, filed.leadId);
  return { recorded: true, leadCreated: filed.created };
}

/**
 * Files the provider's inbound messages (ADR 020), in one transaction: each message once (keyed by its messageId,
 * so a replay changes nothing), the sender's last inbound time (their 24-hour customer-care window), and the
 * message in the latest lead with that number, or a new lead (source `whatsapp`) with its two WhatsApp messages.
 * The clinic's own numbers only open their window. A time stamped in the future counts as now.
 * Each message has its own savepoint, so that one bad message does not lose the batch: one that fails is rolled back alone, logged and counted in
 * `failed`, and the others are stored.
 */
export async function receiveWhatsAppInbound(
  inbound: InboundBatch,
  options: { db?: Database; now?: Date } = {},
): Promise<InboundOutcome> {
  const db = options.db ?? (await getDb());
  const now = options.now ?? new Date();
  const ownNumbers = clinicWhatsAppNumbers();
  const outcome: InboundOutcome = {
    received: inbound.results.length + inbound.skipped,
    recorded: 0,
    leadsCreated: 0,
    skipped: inbound.skipped,
    failed: 0,
  };

  await db.transaction(async (tx) => {
    // Every sender's contact lock, up front and sorted: two webhooks at once with the same senders in
    // another order ([X, Y] and [Y, X]) then wait for each other instead of deadlocking on PostgreSQL. The
    // per-message lock in `fileWhatsAppMessage` is then already held (advisory locks are re-entrant).
    await lockSenders(tx, batchSenders(inbound.results, ownNumbers));
    for (const result of inbound.results) {
      try {
        const one = await tx.transaction((savepoint) => receiveOne(savepoint, result, ownNumbers, now));
        if (one.recorded) outcome.recorded += 1;
        if (one.leadCreated) outcome.leadsCreated += 1;
      } catch (error) {
        outcome.failed += 1;
        logger.error({ err: error, messageId: result.messageId }, "whatsapp inbound message not stored");
      }
    }
  });
  return outcome;
}
