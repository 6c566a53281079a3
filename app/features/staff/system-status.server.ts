import type { Database } from "~/db/client.server";
import { dentalinkClient, dentalinkStatusView } from "~/features/dentalink-sync/dentalink-settings.server";
import { WHATSAPP_OUTBOX_KIND } from "~/features/messaging/whatsapp-outbox.server";
import { webpayMode } from "~/features/payments/webpay-gateway.server";
import type { DentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import { env, whatsAppTestMode, type Env } from "~/lib/base/env.server";
import {
  systemStatusLines,
  WEBPAY_TROUBLE_MS,
  type ScoringCheck,
  type SystemStatusLine,
  type WebpayFacts,
} from "./system-status";
import {
  lastAgentReplyAt,
  outboxFacts,
  webpayTroubleFacts,
  whatsAppFacts,
} from "./system-status-repository.server";

/**
 * The live state of each system (ADR 026): WhatsApp from its latest outcomes, Dentalink from its client (mode and
 * circuit breaker), the chat agent's mode and last reply, the scoring self-check, the outbox backlog, and Webpay's mode and recent trouble.
 */
export async function systemStatus(
  db: Database,
  options: {
    client?: DentalinkClient;
    env?: Env;
    now?: Date;
    checks?: ScoringCheck[];
    webpayMode?: WebpayFacts["mode"];
  } = {},
): Promise<SystemStatusLine[]> {
  const current = options.env ?? env();
  const now = options.now ?? new Date();
  const dentalink = dentalinkStatusView((options.client ?? dentalinkClient()).status(), now.getTime());
  const [whatsapp, lastReplyAt, backlog, webpayTrouble] = await Promise.all([
    whatsAppFacts(db, whatsAppTestMode(current), WHATSAPP_OUTBOX_KIND),
    lastAgentReplyAt(db),
    outboxFacts(db),
    webpayTroubleFacts(db, new Date(now.getTime() - WEBPAY_TROUBLE_MS)),
  ]);
  // The same condition the agent uses to build its LLM client (agent-service.server.ts).
  const llm = Boolean(current.LLM_BASE_URL && current.LLM_API_KEY && current.LLM_MODEL);
  return systemStatusLines(
    {
      whatsapp,
      dentalink,
      agent: { llm, lastReplyAt },
      outbox: backlog,
      webpay: { mode: options.webpayMode ?? webpayMode(), ...webpayTrouble },
    },
    now,
    options.checks,
  );
}
