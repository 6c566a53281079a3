import type { Route } from "./+types/whatsapp-inbound";
import { receiveWhatsAppInbound } from "~/features/leads/whatsapp-inbound-service.server";
import { parseWhatsAppInbound } from "~/features/messaging/whatsapp-inbound.server";
import {
  readWebhookJson,
  webhookAnswer,
  webhookMethodNotAllowed,
} from "~/features/messaging/whatsapp-webhook.server";

/**
 * Messages people send to the clinic's WhatsApp number (Infobip's inbound webhook; ADR 020): the shared
 * secret guards it, no session. Answers `{received, recorded, leadsCreated, skipped}`; 500 when a usable message
 * could not be stored, so the provider sends the batch again (what was stored is not stored twice).
 */
export async function action({ request }: Route.ActionArgs) {
  const read = await readWebhookJson(request);
  if (!read.ok) return read.response;
  const inbound = parseWhatsAppInbound(read.body);
  if (!inbound) return webhookAnswer({ detail: "Not an inbound message body" }, 400);
  const { failed, ...counts } = await receiveWhatsAppInbound(inbound);
  if (failed > 0) {
    return webhookAnswer(
      { ...counts, failed, detail: "Some messages were not stored: send the batch again" },
      500,
    );
  }
  return webhookAnswer(counts);
}

/** GET and HEAD: the webhook takes only POST (without a loader React Router would answer 400). */
export function loader() {
  return webhookMethodNotAllowed();
}
