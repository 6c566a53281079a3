import { env } from "~/lib/base/env.server";
import type { ChatWidgetConfig } from "./components/chat-launcher";

/** The widget's configuration: the fixed account and agent ids, and where the platform is. */
export function chatWidgetConfig(userId: string): ChatWidgetConfig {
  const current = env();
  return {
    accountId: current.CHAT_ACCOUNT_ID,
    agentId: current.CHAT_AGENT_ID,
    baseUrl: current.CHAT_BASE_URL ?? "",
    externalId: userId,
  };
}
