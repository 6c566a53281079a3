import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { IntegrationError, requestJson, type BackoffOptions, type Sleep } from "../http.server";
import { toWhatsAppNumber } from "./phone";
import {
  WHATSAPP_TEMPLATE_PATH,
  WHATSAPP_TEXT_PATH,
  sendOutcome,
  whatsAppErrorCode,
  whatsAppSendResponseSchema,
  whatsAppTemplateRequestSchema,
  whatsAppTextRequestSchema,
  type WhatsAppTemplateButton,
  type WhatsAppTemplateRequest,
  type WhatsAppTextRequest,
} from "./whatsapp-schemas";

/**
 * Server-side client of the Infobip WhatsApp API (ADR 020 on the window): free text inside the customer-care window,
 * approved templates outside it. Every send carries the caller's `messageId` (the outbox row's id), which the
 * provider treats as the message's identity, so a retry after a lost answer does not send twice.
 */

export interface WhatsAppClientOptions {
  /** The account's base URL (`https://xxxxx.api.infobip.com`; without a scheme https is assumed, as in Infobip's SDK). */
  baseUrl: string;
  /** Not needed in test mode. Sent as `Authorization: App <key>`, never logged. */
  apiKey?: string;
  /** The registered WhatsApp sender number. */
  sender: string;
  /** Per attempt (default 10 s); keep `worstCaseDurationMs(timeoutMs, retries)` below the outbox lease. */
  timeoutMs?: number;
  /** Further attempts after a 429, 5xx or timeout (default 2); other 4xx are never retried. */
  retries?: number;
  backoff?: BackoffOptions;
  fetch?: typeof globalThis.fetch;
  sleep?: Sleep;
  /** No HTTP at all: each send answers "accepted" with a generated `test-…` id (WHATSAPP_TEST_MODE, or no key). */
  testMode?: boolean;
  /** Where the provider should post delivery and seen reports for these messages (Infobip `notifyUrl`). */
  notifyUrl?: string;
  onRetry?: (info: { attempt: number; delayMs: number; error: IntegrationError }) => void;
}

export interface SendTextInput {
  to: string;
  text: string;
  /** Idempotency key and the provider's id of the message (the outbox row's id). */
  messageId: string;
  /** Comes back in the delivery report (e.g. the purpose and row it belongs to). */
  callbackData?: string;
}

export interface SendTemplateInput {
  to: string;
  /** An approved template's name. */
  templateName: string;
  language?: "es";
  /** The body's {{1}}, {{2}}… in order. */
  placeholders: string[];
  buttons?: WhatsAppTemplateButton[];
  messageId: string;
  callbackData?: string;
}

export interface WhatsAppSendResult {
  messageId: string;
  /** Accepted by the provider: not yet delivered (that comes in a delivery report). */
  status: "accepted";
  groupName: string;
  statusName: string;
  testMode: boolean;
}

export interface WhatsAppClient {
  readonly testMode: boolean;
  sendText(input: SendTextInput): Promise<WhatsAppSendResult>;
  sendTemplate(input: SendTemplateInput): Promise<WhatsAppSendResult>;
}

/** A message the client refuses to send (bad number, empty or too long text): a bug or bad data, never retried. */
export class WhatsAppInputError extends Error {
  readonly code: string;

  constructor(code: "INVALID_PHONE" | "INVALID_MESSAGE", message: string) {
    super(message);
    this.name = "WhatsAppInputError";
    this.code = code;
  }
}

const SYSTEM = "whatsapp";

function normaliseBaseUrl(baseUrl: string): string {
  const withScheme = /^https?:\/\//i.test(baseUrl) ? baseUrl : `https://${baseUrl}`;
  return withScheme.replace(/\/+$/, "");
}

function number(value: string, field: string): string {
  try {
    return toWhatsAppNumber(value);
  } catch {
    throw new WhatsAppInputError("INVALID_PHONE", `${field}: 8 to 15 digits with the country code expected`);
  }
}

/** Checks a request against the API's schema before it leaves (naming fields, never their values). */
function checked<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = result.error.issues
    .map((issue) => `${issue.path.map(String).join(".")}: ${issue.message}`)
    .join("; ");
  throw new WhatsAppInputError("INVALID_MESSAGE", `WhatsApp message refused before sending (${fields})`);
}

/** What test mode answers: accepted, nothing sent, an id that cannot be mistaken for the provider's. */
function testAnswer(): WhatsAppSendResult {
  return {
    messageId: `test-${randomUUID()}`,
    status: "accepted",
    groupName: "PENDING",
    statusName: "TEST_MODE",
    testMode: true,
  };
}

export function createWhatsAppClient(options: WhatsAppClientOptions): WhatsAppClient {
  const { timeoutMs = 10_000, retries = 2, testMode = false } = options;
  if (!testMode && !options.apiKey) {
    throw new Error("WhatsApp client: an API key is required outside test mode");
  }
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const sender = number(options.sender, "sender");
  const apiKey = options.apiKey ?? "";

  async function post(path: string, body: WhatsAppTextRequest | WhatsAppTemplateRequest) {
    const response = await requestJson({
      system: SYSTEM,
      url: `${baseUrl}${path}`,
      method: "POST",
      headers: { authorization: `App ${apiKey}` },
      body,
      timeoutMs,
      retries,
      backoff: options.backoff,
      fetch: options.fetch,
      sleep: options.sleep,
      schema: whatsAppSendResponseSchema,
      errorCode: whatsAppErrorCode,
      onRetry: options.onRetry,
    });
    const message = response.messages[0];
    if (!message) {
      throw new IntegrationError({
        system: SYSTEM,
        status: 200,
        body: response,
        code: "INVALID_RESPONSE",
        message: `whatsapp: POST ${path} answered without a message`,
      });
    }
    const groupName = message.status.groupName.toUpperCase();
    if (sendOutcome(groupName) === "failed") {
      // A synchronous REJECTED/UNDELIVERABLE (e.g. no credit, unknown sender) will not change on a retry. The
      // body keeps the status only: errors reach the logs, and the recipient's number is personal data.
      throw new IntegrationError({
        system: SYSTEM,
        status: 200,
        body: { messageId: message.messageId, status: message.status },
        code: message.status.name,
        message: `whatsapp: POST ${path} answered ${groupName} ${message.status.name}`,
      });
    }
    return {
      messageId: message.messageId,
      status: "accepted" as const,
      groupName,
      statusName: message.status.name,
      testMode: false,
    };
  }

  return {
    testMode,

    async sendText(input) {
      const body = checked(whatsAppTextRequestSchema, {
        from: sender,
        to: number(input.to, "to"),
        messageId: input.messageId,
        content: { text: input.text },
        callbackData: input.callbackData,
        notifyUrl: options.notifyUrl,
      });
      if (testMode) return testAnswer();
      return post(WHATSAPP_TEXT_PATH, body);
    },

    async sendTemplate(input) {
      const body = checked(whatsAppTemplateRequestSchema, {
        messages: [
          {
            from: sender,
            to: number(input.to, "to"),
            messageId: input.messageId,
            content: {
              templateName: input.templateName,
              templateData: {
                body: { placeholders: input.placeholders },
                ...(input.buttons?.length ? { buttons: input.buttons } : {}),
              },
              language: input.language ?? "es",
            },
            callbackData: input.callbackData,
            notifyUrl: options.notifyUrl,
          },
        ],
      });
      if (testMode) return testAnswer();
      return post(WHATSAPP_TEMPLATE_PATH, body);
    },
  };
}
