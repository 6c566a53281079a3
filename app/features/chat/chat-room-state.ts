import type { RoomPosition } from "./chat-schema";

/** What the room page knows of its room (the API's room answer and its stream's events). Client-safe. */

export type RoomStatus = "bot" | "pending_human" | "open" | "resolved";

export interface RoomMember {
  role: "guest" | "agent" | "staff";
  name: string;
}

export interface ChatMessage {
  seq: number;
  id: string;
  author: "guest" | "agent" | "staff" | "system";
  content: string;
  created_at: string;
}

export interface RoomState {
  status: RoomStatus;
  ai_consent: { version: string; accepted_at: string } | null;
  members?: RoomMember[];
  messages: ChatMessage[];
}

/** The room page's options (its query, validated by `parseRoomQuery`, plus what the server adds). */
export interface RoomOptions {
  roomId: string;
  title: string;
  description: string;
  showClose: boolean;
  showFullscreen: boolean;
  showSidebar: boolean;
  suggestions: boolean;
  primaryColor: string;
  compact: boolean;
  /** Origins allowed to be the parent (ours and CHAT_ALLOWED_ORIGINS). */
  parentOrigins: string[];
  hoursLong: string;
  theme: "light" | "dark";
  /** A mic button, only where the browser has speech recognition. */
  voiceEnabled: boolean;
  /** Where the room sits in a frame larger than room_width × room_height. */
  position: RoomPosition;
  backgroundColor: string;
  backgroundBlur: boolean;
  /** Show the panels as tabs (Chat, Miembros, Ajustes) rather than header buttons. */
  tabs: boolean;
  members: boolean;
  settings: boolean;
  /** false: only this visit's messages are shown. */
  conversationHistory: boolean;
  roomWidth: number | null;
  roomHeight: number | null;
  borderRadius: number;
}
