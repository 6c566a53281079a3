import { randomUUID } from "node:crypto";
import { outboxOrderingKey } from "~/domain/outbox-order";
import { getDb, type Database } from "~/db/client.server";
import {
  enqueue,
  OUTBOX_MAX_ATTEMPTS,
  PermanentDeliveryError,
  type OutboxHandler,
} from "~/features/outbox/outbox.server";
import {
  restoreSecrets,
  separateSecrets,
  type TemplateSecrets,
  type WhatsAppTemplateContent,
} from "~/domain/whatsapp-templates";
import { notSentReason } from "~/domain/consent-rules";
import { chooseSendKind, customerCareWindowOpen } from "~/domain/whatsapp-window";
import { isIntegrationError } from "~/integrations/http.server";
import { toWhatsAppNumber } from "~/integrations/whatsapp/phone";
import {
  createWhatsAppClient,
  WhatsAppInputError,
  type WhatsAppClient,
} from "~/integrations/whatsapp/whatsapp-client.server";
import { groupCommit } from "~/lib/base/group-commit";
import { logger } from "~/lib/base/logger.server";
import {
  advanceStatus,
  findMessageForSend,
  insertQueuedMessage,
  recordAccepted,
  recordSendKind,
  type AcceptedMessage,
} from "./whatsapp-repository.server";
import { mayContactOnWhatsApp } from "./whatsapp-consent.server";
import type { WhatsAppPurposeName } from "./whatsapp-labels";
import { whatsAppSettings, type WhatsAppSettings } from "./whatsapp-settings.server";

/** The outbox kind of WhatsApp messages (DESIGN decision 13: every send goes through the outbox). */
export const WHATSAPP_OUTBOX_KIND = "whatsapp";

/** Why a message is sent (`whatsapp_messages.purpose`): the one list is `whatsAppPurposes` in `whatsapp-labels.ts`. */
export type WhatsAppPurpose = WhatsAppPurposeName;

/**
 * What a message says: its free text, its approved template (`app/domain/whatsapp-templates.ts`), or both. Which one
 * goes out is decided when it is sent (`app/domain/whatsapp-window.ts`): the text inside the recipient's 24-hour
 * customer-care window, the template outside it. Production messages carry both; a text-only message outside the
 * window fails without a call to the provider, and a template-only one (a reminder) always goes as the template.
 */
export type WhatsAppContent =
  { text: string; template?: WhatsAppTemplateContent } | { text?: string; template: WhatsAppTemplateContent };

export type EnqueueWhatsAppInput = WhatsAppContent & {
  purpose: WhatsAppPurpose;
  /** Any common way of writing the number; stored as digits with the country code. */
  to: string;
  leadId?: string;
  appointmentId?: string;
  userId?: string;
  /** Makes the enqueue itself idempotent (a double submit stores one message); default: a fresh key. */
  idempotencyKey?: string;
  /** The outbox lane (domain/outbox-order.ts): the recipient's unless given (a lead's two notices share the lead's). */
  orderingKey?: string | null;
  /**
   * This message only: nothing reaches the provider, it is recorded as accepted in test mode (the test dashboard's
   * toggle). Carried in the outbox payload, so the handler honours it whatever the clinic's own mode.
   */
  testMode?: boolean;
};

/**
 * Queues a WhatsApp message in the caller's transaction: the outbox row and the `whatsapp_messages` row share one
 * id, which is also the provider's messageId. Answers that id, or null when the idempotency key was already used.
 * A bad number is refused here (`WhatsAppInputError`), before anything is stored.
 */
export async function enqueueWhatsApp(
  tx: Pick<Database, "insert">,
  input: EnqueueWhatsAppInput,
): Promise<string | null> {
  let toPhone: string;
  try {
    toPhone = toWhatsAppNumber(input.to);
  } catch {
    throw new WhatsAppInputError("INVALID_PHONE", "to: 8 to 15 digits with the country code expected");
  }
  // A template's secret placeholders (a code, a link) are stored redacted; their values wait sealed in the outbox
  // row until it is sent (ADR 029). Free text beside them would carry the secret in clear.
  const split = input.template ? separateSecrets(input.template) : null;
  if (split?.secrets && input.text !== undefined) {
    throw new Error(`template ${split.stored.name} has secret placeholders: send it without free text`);
  }
  const id = randomUUID();
  const stored = await enqueue(tx, {
    id,
    kind: WHATSAPP_OUTBOX_KIND,
    idempotencyKey: input.idempotencyKey ?? `whatsapp:${id}`,
    // The number and the text stay in whatsapp_messages only (personal data in one place).
    payload: input.testMode ? { purpose: input.purpose, testMode: true } : { purpose: input.purpose },
    // One recipient's messages go out in the order they were queued (a reminder after its confirmation).
    orderingKey: input.orderingKey !== undefined ? input.orderingKey : outboxOrderingKey("whatsapp", toPhone),
    ...(split?.secrets ? { secret: { placeholders: split.secrets } } : {}),
  });
  if (stored === null) return null;
  await insertQueuedMessage(tx, {
    id,
    purpose: input.purpose,
    leadId: input.leadId,
    appointmentId: input.appointmentId,
    userId: input.userId,
    toPhone,
    ...(input.testMode ? { testMode: true } : {}),
    // The kind is the likely one until the send decides (and records) which went out.
    kind: input.text === undefined ? "template" : "text",
    text: input.text ?? null,
    templateName: split?.stored.name ?? null,
    templatePlaceholders: split?.stored.placeholders ?? null,
  });
  return id;
}

const MISSING_SECRET = "MISSING_SECRET: the template's secret placeholders are no longer available";

export const OUTSIDE_WINDOW =
  "OUTSIDE_CUSTOMER_CARE_WINDOW: free text needs a message from the recipient in the last 24 hours, and this message has no template";

/** Why a send failed, for the message's row and the logs: the vendor's code and message, never the number. */
function reason(error: unknown): string {
  if (isIntegrationError(error))
    return `${error.code ?? `HTTP ${error.status}`}: ${error.message}`.slice(0, 500);
  if (error instanceof Error) return error.message.slice(0, 500);
  return String(error).slice(0, 500);
}

/**
 * The outbox handler: sends the row's message with messageId = the outbox id (the provider and the fake keep one
 * message per id, so delivering the row again after a crash between the send and the commit sends nothing new),
 * then records it as accepted. Text or template is decided here, at send time, from the recipient's last inbound
 * message (`now` is the clock; tests give their own). A refusal (4xx, a synchronous REJECTED, a bad number) fails
 * the message for good; 429, 5xx and timeouts are rethrown so that the outbox retries them with backoff, not
 * before a `Retry-After`.
 */
export function createWhatsAppOutboxHandler(
  options: { settings?: WhatsAppSettings; db?: Database; now?: () => Date } = {},
): OutboxHandler {
  const settings = options.settings ?? whatsAppSettings();
  const now = options.now ?? (() => new Date());
  const clients: { live?: WhatsAppClient; test?: WhatsAppClient } = {};
  const create = (testMode: boolean) =>
    createWhatsAppClient({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      sender: settings.sender,
      testMode,
      timeoutMs: settings.timeoutMs,
      retries: settings.retries,
      notifyUrl: settings.notifyUrl,
    });
  // Sends that end together are recorded as accepted in one statement; each waits for its own row (ADR 051).
  const accepting = new WeakMap<Database, (message: AcceptedMessage) => Promise<void>>();
  const acceptedIn = (db: Database) => {
    let record = accepting.get(db);
    if (!record) {
      record = groupCommit((messages: AcceptedMessage[]) => recordAccepted(db, messages));
      accepting.set(db, record);
    }
    return record;
  };
  // A message queued in test mode (`payload.testMode`) never reaches the provider, whatever the clinic's mode.
  const clientFor = (testMode: boolean) =>
    testMode ? (clients.test ??= create(true)) : (clients.live ??= create(settings.testMode));

  return async (payload, { id, attempts, secret }) => {
    const db = options.db ?? (await getDb());
    const found = await findMessageForSend(db, id);
    const message = found?.message;
    if (!found || !message)
      throw new PermanentDeliveryError(`whatsapp: no whatsapp_messages row for outbox ${id}`);
    if (message.status !== "queued") return message.testMode ? "whatsapp-test-mode" : "whatsapp";
    // Asked again at send time (ADR 037): a consent withdrawn after the message was queued stops it here, recorded
    // as failed with the reason, never sent.
    const consent = await mayContactOnWhatsApp(db, message, now());
    if (consent && !consent.allowed) {
      const why = notSentReason(consent.reason);
      await advanceStatus(db, { id }, "failed", now(), why);
      logger.info(
        { whatsAppMessageId: id, purpose: message.purpose },
        "whatsapp message not sent: no consent",
      );
      throw new PermanentDeliveryError(why);
    }
    const windowOpen = customerCareWindowOpen(found.lastInboundAt, now());
    const kind = chooseSendKind(
      { hasText: message.text !== null, hasTemplate: message.templateName !== null },
      windowOpen,
    );
    if (kind === null) {
      // Infobip would refuse it (free text outside the window): no call, failed for good with the reason.
      await advanceStatus(db, { id }, "failed", now(), OUTSIDE_WINDOW);
      logger.warn(
        { whatsAppMessageId: id, purpose: message.purpose },
        "whatsapp message failed: outside the window",
      );
      throw new PermanentDeliveryError(OUTSIDE_WINDOW);
    }
    if (kind !== message.kind) await recordSendKind(db, id, kind);
    const placeholders =
      kind === "template"
        ? restoreSecrets(
            message.templateName ?? "",
            message.templatePlaceholders ?? [],
            (secret as { placeholders?: TemplateSecrets } | undefined)?.placeholders,
          )
        : [];
    if (placeholders === null) {
      // Never sent with "[oculto]" in it: the secret is gone (already sent once, or sealed with another key).
      await advanceStatus(db, { id }, "failed", now(), MISSING_SECRET);
      throw new PermanentDeliveryError(MISSING_SECRET);
    }
    try {
      const sender = clientFor(payload.testMode === true);
      const result =
        kind === "template"
          ? await sender.sendTemplate({
              to: message.toPhone,
              templateName: message.templateName ?? "",
              placeholders,
              messageId: id,
              callbackData: message.purpose,
            })
          : await sender.sendText({
              to: message.toPhone,
              text: message.text ?? "",
              messageId: id,
              callbackData: message.purpose,
            });
      await acceptedIn(db)({
        id,
        providerMessageId: result.messageId,
        testMode: result.testMode,
        at: new Date(),
      });
      return result.testMode ? "whatsapp-test-mode" : "whatsapp";
    } catch (error) {
      const permanent =
        error instanceof WhatsAppInputError || (isIntegrationError(error) && !error.retryable);
      if (!permanent && attempts < OUTBOX_MAX_ATTEMPTS) throw error;
      const why = reason(error);
      await advanceStatus(db, { id }, "failed", new Date(), why);
      logger.warn({ whatsAppMessageId: id, purpose: message.purpose, err: why }, "whatsapp message failed");
      if (permanent) throw new PermanentDeliveryError(why, { cause: error });
      throw error;
    }
  };
}
