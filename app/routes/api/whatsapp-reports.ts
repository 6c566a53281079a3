import type { Route } from "./+types/whatsapp-reports";
import {
  applyWhatsAppReport,
  parseWhatsAppReport,
} from "~/features/messaging/whatsapp-reports-service.server";
import {
  readWebhookJson,
  webhookAnswer,
  webhookMethodNotAllowed,
} from "~/features/messaging/whatsapp-webhook.server";

/** The provider's delivery and seen reports: the shared secret guards it (ADR 034), no session. */
export async function action({ request }: Route.ActionArgs) {
  const read = await readWebhookJson(request);
  if (!read.ok) return read.response;
  const report = parseWhatsAppReport(read.body);
  if (!report) return webhookAnswer({ detail: "Not a delivery or seen report" }, 400);
  return webhookAnswer(await applyWhatsAppReport(report));
}

/** GET and HEAD: the webhook takes only POST (without a loader React Router would answer 400). */
export function loader() {
  return webhookMethodNotAllowed();
}
