import type { Database } from "~/db/client.server";
import { AppError } from "~/lib/base/errors";
import { env } from "~/lib/base/env.server";
import { canonicalConsentVersion } from "~/domain/consent-texts";
import { contactSubject, giveConsent } from "~/features/consent/consent-service.server";
import { runAgent } from "./chat-agent-runner.server";
import { agentDto, messageDto, roomDto, roomUrl, type RoomMemberDto } from "./chat-dto.server";
import { ownedGuest, type RequestScope } from "./chat-guest-service.server";
import { handOff } from "./chat-handoff.server";
import { ensureListening } from "./chat-hub.server";
import { requireChatAccount } from "./chat-http.server";
import { chargeGuestMessage } from "./chat-rate-limits.server";
import { isRoomId } from "./chat-token-service.server";
import {
  assigneeFirstName,
  findOpenRoom,
  findRoom,
  insertGuestMessage,
  insertRoom,
  messagesAfter,
  updateRoom,
  type ChatGuestRow,
  type ChatRoomRow,
} from "./chat-repository.server";
import type { addMemberSchema, createRoomSchema, sendMessageSchema } from "./chat-schema";
import type { AccessClaims } from "./chat-tokens.server";
import type { z } from "zod";

/** A guest's conversations with the virtual dentist: open or rejoin, read, write, accept the AI notice, ask for a person. */

const roomNotFound = () => new AppError("NOT_FOUND", "Room not found");

/** The guest's open room with this agent (`created: false`), or a new one. */
export async function openRoom(db: Database, scope: RequestScope, body: z.infer<typeof createRoomSchema>) {
  requireChatAccount(body.account_id);
  if (body.agent_id !== env().CHAT_AGENT_ID) throw new AppError("NOT_FOUND", "Agent not found");
  const guest = await ownedGuest(db, scope, body.guest_id, body.account_id);
  const open = await findOpenRoom(db, guest.id, body.agent_id);
  if (open) return { room: roomDto(open, guest), created: false };
  const room = await insertRoom(db, {
    accountId: body.account_id,
    guestId: guest.id,
    agentId: body.agent_id,
  });
  return { room: roomDto(room, guest), created: true };
}

/**
 * One guest per room: only the room's own guest may (re)join it. Room mode (issue 24, item 20) opens a room by id
 * through here, so the id in the path is only a request: the caller must prove it owns the room's guest (session or
 * browser cookie), or the answer is the same 404 as for a room that does not exist.
 */
export async function joinRoom(
  db: Database,
  scope: RequestScope,
  roomId: string,
  body: z.infer<typeof addMemberSchema>,
) {
  requireChatAccount(body.account_id);
  const guest = await ownedGuest(db, scope, body.guest_id, body.account_id);
  const room = isRoomId(roomId) ? await findRoom(db, roomId) : undefined;
  if (!room || room.accountId !== body.account_id || room.guestId !== guest.id) throw roomNotFound();
  return { room_id: room.id, guest_id: guest.id, joined: true, url: roomUrl(room.id), status: room.status };
}

/**
 * Who is in the room (its members panel): the guest, the virtual dentist and, once a person took the conversation,
 * that staff member by first name only.
 */
async function membersOf(db: Database, room: ChatRoomRow, guest: ChatGuestRow) {
  const members: RoomMemberDto[] = [
    { role: "guest", name: `${guest.firstName} ${guest.lastName}`.trim() },
    { role: "agent", name: agentDto().name },
  ];
  const staff = await assigneeFirstName(db, room.assignedTo);
  if (staff) members.push({ role: "staff", name: staff });
  return members;
}

export async function readRoom(db: Database, { guest, room }: RoomAccess) {
  const messages = await messagesAfter(db, room.id, 0);
  return {
    ...roomDto(room, guest),
    members: await membersOf(db, room, guest),
    messages: messages.map(messageDto),
  };
}

/** The bearer's guest and room, as `bearerRoom` (chat-token-service.server.ts) proved them. */
export interface RoomAccess {
  guest: ChatGuestRow;
  room: ChatRoomRow;
}

/**
 * The hot path (one message per second per room, fan-out p99 ≤ 100 ms; ADR 028): the access token was checked in
 * memory, the guest's message budget is charged (one upsert), then one statement checks that the room is the
 * token's guest's and open to messages, stores the message (idempotent on the client id), moves the room's
 * activity time and NOTIFYs the room.
 */
export async function postGuestMessage(
  db: Database,
  claims: AccessClaims,
  roomId: string,
  body: z.infer<typeof sendMessageSchema>,
  address: string,
) {
  await chargeGuestMessage(db, claims.guestId);
  await ensureListening();
  const result = await insertGuestMessage(db, {
    guestId: claims.guestId,
    accountId: claims.accountId,
    roomId,
    id: body.id,
    content: body.content,
  });
  if (result.kind === "no-room") throw roomNotFound();
  if (result.kind === "closed") throw new AppError("CONFLICT", "This conversation is closed");
  if (result.kind === "needs-consent") {
    throw new AppError("CONFLICT", "Accept the AI-assistance notice first, or ask for a person");
  }
  const { row, created, status } = result;
  if (row.roomId !== roomId) throw new AppError("CONFLICT", "Message id already used");
  if (!created) return { message: messageDto(row), duplicate: true as const };
  if (status === "bot") await runAgent(db, roomId, body.content, address, claims.guestId);
  return { message: messageDto(row) };
}

/**
 * The AI notice accepted: on the room (the bot may answer) and in the consent ledger as 'chat_ia' (ADR 037), for the
 * account when the guest is signed in, else for the guest's browser.
 */
export async function acceptAiNotice(db: Database, { guest, room }: RoomAccess, version: string) {
  if (room.aiConsentAt) return roomDto(room, guest);
  const canonical = canonicalConsentVersion("chat_ia", version);
  const at = new Date();
  const updated = await db.transaction(async (tx) => {
    const row = await updateRoom(tx, room.id, { aiConsentVersion: canonical, aiConsentAt: at });
    await giveConsent(tx, {
      subject: contactSubject({ userId: guest.externalId }),
      chatGuestId: guest.id,
      purpose: "chat_ia",
      channel: "chat",
      version: canonical,
      at,
    });
    return row;
  });
  return roomDto(updated ?? room, guest);
}

export async function requestPerson(db: Database, { guest, room }: RoomAccess, reason: string) {
  const recent = await messagesAfter(db, room.id, 0);
  const lastGuest = recent.filter((message) => message.author === "guest").slice(-3);
  const summary = lastGuest.length
    ? `Últimos mensajes del paciente: ${lastGuest.map((message) => `«${message.content.slice(0, 200)}»`).join(" · ")}`
    : "El paciente pidió hablar con una persona antes de escribir.";
  await handOff(db, room.id, reason || "El paciente pidió hablar con una persona", summary);
  const after = (await findRoom(db, room.id)) ?? room;
  return roomDto(after, guest);
}
