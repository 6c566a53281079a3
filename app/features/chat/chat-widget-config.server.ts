import type { Database } from "~/db/client.server";
import { ROOM_LINK_REFUSALS } from "~/domain/chat-room-links";
import { parseOpenMode } from "~/domain/chat-widget-modes";
import { env } from "~/lib/base/env.server";
import { openRoomLink, ROOM_LINK_PARAM } from "./chat-room-link.server";
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

/**
 * The widget of a patient page, as its address asks (issue 24, item 20): `?open_mode=` (widget, fullscreen,
 * sidebar_left, sidebar_right) opens the panel at once in that mode; `?sala=` (a clinic's link, ADR 043) opens that
 * room in room mode, but only after the link's signature, its expiry and the room's guest being this user's were
 * checked here. A refused link leaves the widget in agent mode with a notice saying why, in Spanish.
 */
export async function patientChatWidget(
  db: Database,
  user: { id: string },
  url: URL,
): Promise<{ config: ChatWidgetConfig; notice: string | null }> {
  const openMode = parseOpenMode(url.searchParams.get("open_mode"));
  const config: ChatWidgetConfig = { ...chatWidgetConfig(user.id), openMode, openAtOnce: openMode !== null };
  const token = url.searchParams.get(ROOM_LINK_PARAM);
  if (!token) return { config, notice: null };
  const verdict = await openRoomLink(db, user, token);
  if (!verdict.ok) return { config, notice: ROOM_LINK_REFUSALS[verdict.reason] };
  return { config: { ...config, chatMode: "room", roomId: verdict.roomId, openAtOnce: true }, notice: null };
}
