import type { Database } from "~/db/client.server";
import { dentalinkClient, dentalinkStatusView } from "~/features/dentalink-sync/dentalink-settings.server";
import { WHATSAPP_OUTBOX_KIND } from "~/features/messaging/whatsapp-outbox.server";
import type { DentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import { env, whatsAppTestMode, type Env } from "~/lib/base/env.server";
import { systemStatusLines, type ScoringCheck, type SystemStatusLine } from "./system-status";
import { lastAgentReplyAt, outboxFacts, whatsAppFacts } from "./system-status-repository.server";

/**
 * The live state of each system (ADR 026): WhatsApp from its latest outcomes, Dentalink from its client (mode and
 * circuit breaker), the chat agent's mode and last reply, the scoring self-check, and the outbox backlog.
 */
export async function systemStatus(
  db: Database,
  options: { client?: DentalinkClient; env?: Env; now?: Date; checks?: ScoringCheck[] } = {},
): Promise<SystemStatusLine[]> {
  const current = options.env ?? env();
  const now = options.now ?? new Date();
  const dentalink = dentalinkStatusView((options.client ?? dentalinkClient()).status(), now.getTime());
  const [whatsapp, lastReplyAt, backlog] = await Promise.all([
    whatsAppFacts(db, whatsAppTestMode(current), WHATSAPP_OUTBOX_KIND),
    lastAgentReplyAt(db),
    outboxFacts(db),
  ]);
  // The same condition the agent uses to build its LLM client (agent-service.server.ts).
  const llm = Boolean(current.LLM_BASE_URL && current.LLM_API_KEY && current.LLM_MODEL);
  return systemStatusLines(
    { whatsapp, dentalink, agent: { llm, lastReplyAt }, outbox: backlog },
    now,
    options.checks,
  );
}
