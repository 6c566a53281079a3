import { env } from "~/lib/base/env.server";
import type { ChatGuestRow, ChatMessageRow, ChatRoomRow } from "./chat-repository.server";

/** The chat platform's answers, field by field (snake_case, as the widget's protocol has them). */
export function guestDto(guest: ChatGuestRow) {
  return {
    id: guest.id,
    external_id: guest.externalId,
    first_name: guest.firstName,
    last_name: guest.lastName,
    email: guest.email,
    phone: guest.phone,
  };
}

export function agentDto() {
  return { id: env().CHAT_AGENT_ID, name: "Dentista Virtual IA" };
}

export function roomUrl(roomId: string) {
  return `/chat/sala/${roomId}`;
}

export function roomDto(room: ChatRoomRow, guest: ChatGuestRow) {
  return {
    room_id: room.id,
    agent: agentDto(),
    guest: guestDto(guest),
    account_id: room.accountId,
    url: roomUrl(room.id),
    status: room.status,
    ai_consent: room.aiConsentAt
      ? { version: room.aiConsentVersion, accepted_at: room.aiConsentAt.toISOString() }
      : null,
  };
}

export function messageDto(message: ChatMessageRow) {
  return {
    seq: message.seq,
    id: message.id,
    room_id: message.roomId,
    author: message.author,
    kind: message.kind,
    content: message.content,
    created_at: message.createdAt.toISOString(),
  };
}

export interface RoomMemberDto {
  role: string;
  name: string;
}
