import type { Route } from "./+types/room";
import { ChatRoom } from "~/features/chat/components/chat-room";
import { chatAllowedOrigins, clinicFacts, env, publicBaseUrl } from "~/lib/env.server";

const flag = (value: string | null, fallback: boolean) =>
  value === null ? fallback : value === "true" || value === "1";

/**
 * The chat room page the widget's iframe loads (spec 001 §7): the only frameable route (entry.server sets its
 * frame-ancestors). It holds no data of its own: the guest's token arrives by postMessage from the parent.
 */
export function loader({ request, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = url.searchParams;
  const color = query.get("primary_color") ?? "";
  return {
    roomId: params.roomId,
    title: (query.get("title") ?? "Dentista Virtual IA").slice(0, 80),
    description: (query.get("description") ?? "Asistente virtual de la clínica").slice(0, 120),
    showClose: flag(query.get("show_close_button"), false),
    showFullscreen: flag(query.get("show_fullscreen_button"), false),
    showSidebar: flag(query.get("show_sidebar_button"), false),
    suggestions: flag(query.get("suggestions"), true),
    // Only a hex colour reaches a style attribute.
    primaryColor: /^#[0-9a-f]{6}$/i.test(color) ? color : "#DC2626",
    compact: flag(query.get("compact"), false),
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
