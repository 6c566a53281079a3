import type { Route } from "./+types/room";
import { parseRoomQuery } from "~/features/chat/chat-schema";
import { ChatRoom } from "~/features/chat/components/chat-room";
import { chatAllowedOrigins, clinicFacts, env, publicBaseUrl } from "~/lib/base/env.server";

/**
 * The chat room page the widget's iframe loads: the only frameable route (entry.server sets its
 * frame-ancestors). It holds no data of its own: the guest's token arrives by postMessage from the parent. The
 * query options are validated with their defaults (`roomQuerySchema`); a bad value falls back to the default.
 */
export function loader({ request, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = parseRoomQuery(url.searchParams);
  return {
    roomId: params.roomId,
    title: query.title,
    description: query.description,
    showClose: query.show_close_button,
    showFullscreen: query.show_fullscreen_button,
    showSidebar: query.show_sidebar_button,
    suggestions: query.suggestions,
    primaryColor: query.primary_color,
    compact: query.compact,
    theme: query.theme,
    voiceEnabled: query.voice_enabled,
    position: query.position,
    backgroundColor: query.background_color,
    backgroundBlur: query.background_blur,
    tabs: query.tabs,
    members: query.members,
    settings: query.settings,
    conversationHistory: query.conversation_history,
    roomWidth: query.room_width ?? null,
    roomHeight: query.room_height ?? null,
    borderRadius: query.border_radius,
    parentOrigins: [new URL(publicBaseUrl(env())).origin, url.origin, ...chatAllowedOrigins()],
    hoursLong: clinicFacts().hoursLong,
  };
}

export function meta() {
  return [{ title: "Dentista Virtual IA" }, { name: "robots", content: "noindex" }];
}

export default function ChatRoomPage({ loaderData }: Route.ComponentProps) {
  return <ChatRoom options={loaderData} />;
}
