import type { Route } from "./+types/whatsapp-inbound";
import {
  parseWhatsAppInbound,
  receiveWhatsAppInbound,
} from "~/features/messaging/whatsapp-inbound-service.server";
import { readWebhookJson, webhookAnswer } from "~/features/messaging/whatsapp-webhook.server";

/**
 * Messages people send to the clinic's WhatsApp number (Infobip's inbound webhook; DESIGN decision 16): the shared
 * secret guards it, no session. Answers `{received, recorded, leadsCreated}`.
 */
export async function action({ request }: Route.ActionArgs) {
  const read = await readWebhookJson(request);
  if (!read.ok) return read.response;
  const inbound = parseWhatsAppInbound(read.body);
  if (!inbound) return webhookAnswer({ detail: "Not an inbound message body" }, 400);
  return webhookAnswer(await receiveWhatsAppInbound(inbound));
}
