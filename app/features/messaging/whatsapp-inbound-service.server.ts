import { getDb, type Database } from "~/db/client.server";
import { fileWhatsAppMessage, lockSenders } from "~/features/leads/lead-service.server";
import { normalizeWhatsAppNumber } from "~/integrations/whatsapp/phone";
import {
  parseInfobipDate,
  whatsAppInboundEnvelopeSchema,
  whatsAppInboundResultSchema,
  type WhatsAppInboundResult,
} from "~/integrations/whatsapp/whatsapp-schemas";
import { clinicFacts, env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { fileInboundUnderLead, insertInboundOnce, touchContact } from "./whatsapp-repository.server";

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
 * Infobip's inbound body, each message checked on its own (issue 19): a message that is not one we can store (a
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
function clinicNumbers(): Set<string> {
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
function batchSenders(results: readonly WhatsAppInboundResult[], ownNumbers: ReadonlySet<string>): string[] {
  return results
    .map((result) => normalizeWhatsAppNumber(result.from))
    .filter((from): from is string => from !== null && !ownNumbers.has(from))
    .map((from) => `+${from}`);
}

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
  const none = { recorded: false, leadCreated: false };
  const from = normalizeWhatsAppNumber(result.from);
  if (!from) {
    logger.warn({ messageId: result.messageId }, "whatsapp inbound message ignored: not a number");
    return none;
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
  if (id === null) return none;
  await touchContact(tx, { phone: from, at, contactName });
  if (ownNumbers.has(from)) return { recorded: true, leadCreated: false };
  const filed = await fileWhatsAppMessage(tx, {
    phone: `+${from}`,
    contactName,
    text,
    at,
    inboundMessageId: id,
  });
  await fileInboundUnderLead(tx, id, filed.leadId);
  return { recorded: true, leadCreated: filed.created };
}

/**
 * Files the provider's inbound messages (issue 9), in one transaction: each message once (keyed by its messageId,
 * so a replay changes nothing), the sender's last inbound time (their 24-hour customer-care window), and the
 * message in the latest lead with that number, or a new lead (source `whatsapp`) with its two WhatsApp messages.
 * The clinic's own numbers only open their window. A time stamped in the future counts as now.
 * Each message has its own savepoint (issue 19): one that fails is rolled back alone, logged and counted in
 * `failed`, and the others are stored.
 */
export async function receiveWhatsAppInbound(
  inbound: InboundBatch,
  options: { db?: Database; now?: Date } = {},
): Promise<InboundOutcome> {
  const db = options.db ?? (await getDb());
  const now = options.now ?? new Date();
  const ownNumbers = clinicNumbers();
  const outcome: InboundOutcome = {
    received: inbound.results.length + inbound.skipped,
    recorded: 0,
    leadsCreated: 0,
    skipped: inbound.skipped,
    failed: 0,
  };

  await db.transaction(async (tx) => {
    // Every sender's contact lock, up front and sorted (issue 13): two webhooks at once with the same senders in
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
