import { z } from "zod";
// Relative, not `~/`: the standalone fake provider (tests/setup/run-whatsapp-fake.mjs) runs this file on plain Node.
import { containsNul } from "../../domain/nul-character";

/**
 * The Infobip WhatsApp API's shapes (Infobip's SDK models `WhatsAppTextMessage`,
 * `WhatsAppSingleMessageInfo`, `WhatsAppBulkMessageInfo` and the report pages of infobip.com/docs/api). Client-safe:
 * the webhook routes and the fake provider share these and the header constant below.
 *
 * Objects are not strict: the vendor adds fields over time, and unknown ones are dropped, never an error.
 */

/** Header that carries `WHATSAPP_WEBHOOK_SECRET` on report and inbound webhooks (the fake sends it; the routes check it). */
export const WHATSAPP_WEBHOOK_SECRET_HEADER = "X-Webhook-Secret";

export const WHATSAPP_TEXT_PATH = "/whatsapp/1/message/text";
export const WHATSAPP_TEMPLATE_PATH = "/whatsapp/1/message/template";

/** Meta's limit on a text message body (developers.facebook.com, text messages). */
export const WHATSAPP_TEXT_MAX_LENGTH = 4096;

// ---- Requests -----------------------------------------------------------------------------------------------

export const whatsAppTextRequestSchema = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  messageId: z.string().min(1).optional(),
  content: z.object({
    text: z.string().min(1).max(WHATSAPP_TEXT_MAX_LENGTH),
    previewUrl: z.boolean().optional(),
  }),
  callbackData: z.string().optional(),
  notifyUrl: z.string().optional(),
});
export type WhatsAppTextRequest = z.infer<typeof whatsAppTextRequestSchema>;

/** A template button's dynamic part: the URL suffix of a URL button, the payload of a quick reply. */
export const whatsAppTemplateButtonSchema = z.object({
  type: z.enum(["URL", "QUICK_REPLY"]),
  parameter: z.string().min(1),
});
export type WhatsAppTemplateButton = z.infer<typeof whatsAppTemplateButtonSchema>;

export const whatsAppTemplateMessageSchema = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  messageId: z.string().min(1).optional(),
  content: z.object({
    templateName: z.string().min(1),
    templateData: z.object({
      body: z.object({ placeholders: z.array(z.string()) }),
      buttons: z.array(whatsAppTemplateButtonSchema).optional(),
    }),
    language: z.string().min(2),
  }),
  callbackData: z.string().optional(),
  notifyUrl: z.string().optional(),
});
export type WhatsAppTemplateMessage = z.infer<typeof whatsAppTemplateMessageSchema>;

export const whatsAppTemplateRequestSchema = z.object({
  messages: z.array(whatsAppTemplateMessageSchema).min(1),
  bulkId: z.string().optional(),
});
export type WhatsAppTemplateRequest = z.infer<typeof whatsAppTemplateRequestSchema>;

// ---- Synchronous answers ------------------------------------------------------------------------------------

export const whatsAppStatusSchema = z.object({
  groupId: z.number().optional(),
  groupName: z.string(),
  id: z.number().optional(),
  name: z.string(),
  description: z.string().optional(),
  action: z.string().optional(),
});
export type WhatsAppStatus = z.infer<typeof whatsAppStatusSchema>;

/** The text endpoint's answer (`WhatsAppSingleMessageInfo`). */
export const whatsAppSingleMessageInfoSchema = z.object({
  to: z.string(),
  messageCount: z.number().optional(),
  messageId: z.string(),
  status: whatsAppStatusSchema,
});

/** The template endpoint's answer (`WhatsAppBulkMessageInfo`), also the spec's `{messages:[…]}`. */
export const whatsAppBulkMessageInfoSchema = z.object({
  messages: z.array(
    z.object({
      to: z.string().optional(),
      messageCount: z.number().optional(),
      messageId: z.string(),
      status: whatsAppStatusSchema,
    }),
  ),
  bulkId: z.string().optional(),
});

export interface WhatsAppSentMessage {
  to?: string;
  messageId: string;
  messageCount?: number;
  status: WhatsAppStatus;
}

/** Either answer, normalised to the bulk form: the one place where the two shapes meet. */
export const whatsAppSendResponseSchema = z
  .union([whatsAppBulkMessageInfoSchema, whatsAppSingleMessageInfoSchema])
  .transform((value): { bulkId?: string; messages: WhatsAppSentMessage[] } =>
    "messages" in value ? value : { messages: [value] },
  );
export type WhatsAppSendResponse = z.output<typeof whatsAppSendResponseSchema>;

/** Status groups (Infobip "Response status and error codes") that end a message in the synchronous answer. */
const failedGroups = new Set(["REJECTED", "UNDELIVERABLE", "EXPIRED"]);

/**
 * PENDING/ACCEPTED mean accepted, not delivered. "failed" only for a group that says so: a group we do not know
 * yet counts as accepted, so a new vendor group never makes us send twice (its delivery report settles it).
 */
export function sendOutcome(groupName: string): "accepted" | "failed" {
  return failedGroups.has(groupName.toUpperCase()) ? "failed" : "accepted";
}

// ---- Errors -------------------------------------------------------------------------------------------------

/** `{"requestError":{"serviceException":{"messageId":"BAD_REQUEST","text":…,"validationErrors":{…}}}}` */
export const whatsAppErrorBodySchema = z.object({
  requestError: z.object({
    serviceException: z.object({
      messageId: z.string(),
      text: z.string(),
      validationErrors: z.record(z.string(), z.array(z.string())).optional(),
    }),
  }),
});
export type WhatsAppErrorBody = z.infer<typeof whatsAppErrorBodySchema>;

/** The vendor's error code (`UNAUTHORIZED`, `BAD_REQUEST`, `TOO_MANY_REQUESTS`…) of an error body, if any. */
export function whatsAppErrorCode(body: unknown): string | undefined {
  const parsed = whatsAppErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.requestError.serviceException.messageId : undefined;
}

/** The `validationErrors` of a 400 body (field path → messages), if any. */
export function whatsAppValidationErrors(body: unknown): Record<string, string[]> | undefined {
  const parsed = whatsAppErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.requestError.serviceException.validationErrors : undefined;
}

// ---- Webhooks -----------------------------------------------------------------------------------------------

/**
 * Infobip writes instants as `2019-08-01T12:00:00.000+0000` (no colon in the offset); a Date, or null when the
 * text is not a date at all.
 */
export function parseInfobipDate(value: string): Date | null {
  const normalised = value.trim().replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
  const time = Date.parse(normalised);
  return Number.isNaN(time) ? null : new Date(time);
}

/** The same instant written the way Infobip writes it. */
export function formatInfobipDate(date: Date): string {
  return date.toISOString().replace("Z", "+0000");
}

const infobipDate = z.string().refine((value) => parseInfobipDate(value) !== null, "not a date");

export const whatsAppDeliveryReportSchema = z.object({
  results: z.array(
    z.object({
      bulkId: z.string().optional(),
      messageId: z.string().min(1),
      to: z.string(),
      sentAt: infobipDate.optional(),
      doneAt: infobipDate.optional(),
      messageCount: z.number().optional(),
      status: whatsAppStatusSchema,
      error: z
        .object({
          groupId: z.number().optional(),
          groupName: z.string().optional(),
          id: z.number().optional(),
          name: z.string().optional(),
          description: z.string().optional(),
          permanent: z.boolean().optional(),
        })
        .optional(),
      callbackData: z.string().optional(),
    }),
  ),
});
export type WhatsAppDeliveryReport = z.infer<typeof whatsAppDeliveryReportSchema>;

export const whatsAppSeenReportSchema = z.object({
  results: z.array(
    z.object({
      messageId: z.string().min(1),
      from: z.string().optional(),
      to: z.string().optional(),
      sentAt: infobipDate.optional(),
      seenAt: infobipDate,
    }),
  ),
});
export type WhatsAppSeenReport = z.infer<typeof whatsAppSeenReportSchema>;

/**
 * Inbound messages (Infobip "Receive WhatsApp inbound messages"). Only TEXT is read; other types (image,
 * location, button replies…) are accepted with their type so the webhook still answers 200 and records the
 * contact (which opens the customer-care window) instead of making the vendor retry forever.
 */
const inboundTextMessage = z.object({ type: z.literal("TEXT"), text: z.string() });
const inboundOtherMessage = z.looseObject({
  type: z.string().refine((type) => type !== "TEXT", "TEXT needs its text"),
});

/** One inbound message. One holding a NUL character anywhere is not a message we can store (ADR 034). */
export const whatsAppInboundResultSchema = z
  .object({
    from: z.string().min(1),
    to: z.string().min(1),
    integrationType: z.literal("WHATSAPP"),
    receivedAt: infobipDate,
    messageId: z.string().min(1),
    pairedMessageId: z.string().nullish(),
    callbackData: z.string().nullish(),
    message: z.union([inboundTextMessage, inboundOtherMessage]),
    // Absent or null when WhatsApp has no profile name for the sender.
    contact: z.object({ name: z.string().nullish() }).nullish(),
  })
  .refine((result) => !containsNul(result), "NUL character");
export type WhatsAppInboundResult = z.infer<typeof whatsAppInboundResultSchema>;

const inboundCounts = {
  messageCount: z.number().optional(),
  pendingMessageCount: z.number().optional(),
};

/** The batch with its messages unread: the webhook checks each on its own, so a bad one does not refuse the rest. */
export const whatsAppInboundEnvelopeSchema = z.object({ results: z.array(z.unknown()), ...inboundCounts });

export const whatsAppInboundSchema = z.object({
  results: z.array(whatsAppInboundResultSchema),
  ...inboundCounts,
});
export type WhatsAppInbound = z.infer<typeof whatsAppInboundSchema>;
