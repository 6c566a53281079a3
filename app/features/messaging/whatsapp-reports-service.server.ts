import { getDb } from "~/db/client.server";
import { containsNul } from "~/domain/nul-character";
import { deliveryReportOutcome } from "~/domain/whatsapp-message-status";
import {
  parseInfobipDate,
  whatsAppDeliveryReportSchema,
  whatsAppSeenReportSchema,
  type WhatsAppDeliveryReport,
  type WhatsAppSeenReport,
} from "~/integrations/whatsapp/whatsapp-schemas";
import { advanceStatus } from "./whatsapp-repository.server";

export type WhatsAppReport =
  { kind: "delivery"; report: WhatsAppDeliveryReport } | { kind: "seen"; report: WhatsAppSeenReport };

/** A delivery or a seen report (the two webhooks may share one URL); null when the body is neither. */
export function parseWhatsAppReport(body: unknown): WhatsAppReport | null {
  const delivery = whatsAppDeliveryReportSchema.safeParse(body);
  if (delivery.success) return { kind: "delivery", report: delivery.data };
  const seen = whatsAppSeenReportSchema.safeParse(body);
  if (seen.success) return { kind: "seen", report: seen.data };
  return null;
}

function instant(value: string | undefined): Date {
  return (value && parseInfobipDate(value)) || new Date();
}

/**
 * Applies each result to the message with that messageId (ours, or the provider's), forward only: a replay, a late
 * report or an unknown id changes nothing. A result holding a NUL character names no message of ours and would
 * fail its query, so it is skipped like an unknown id (ADR 034). Answers how many messages moved.
 */
export async function applyWhatsAppReport(
  input: WhatsAppReport,
): Promise<{ received: number; updated: number }> {
  const db = await getDb();
  let updated = 0;
  if (input.kind === "delivery") {
    for (const result of input.report.results) {
      const outcome = deliveryReportOutcome(result.status.groupName);
      if (!outcome || containsNul(result)) continue;
      const error =
        outcome === "failed"
          ? [result.status.name, result.error?.name, result.error?.description].filter(Boolean).join(": ")
          : undefined;
      const moved = await advanceStatus(
        db,
        { messageId: result.messageId },
        outcome,
        instant(result.doneAt),
        error?.slice(0, 500),
      );
      if (moved) updated += 1;
    }
  } else {
    for (const result of input.report.results) {
      if (containsNul(result)) continue;
      if (await advanceStatus(db, { messageId: result.messageId }, "read", instant(result.seenAt)))
        updated += 1;
    }
  }
  return { received: input.report.results.length, updated };
}
