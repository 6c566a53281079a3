import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import {
  decideRoomLink,
  mayLinkRoom,
  parseRoomLinkPayload,
  ROOM_LINK_TTL_MS,
  roomLinkPayload,
  type RoomLinkClaims,
  type RoomLinkVerdict,
} from "~/domain/chat-room-links";
import { formatClinicTimestamp } from "~/domain/format";
import { AppError } from "~/lib/base/errors";
import { env, publicBaseUrl } from "~/lib/base/env.server";
import { ensureListening } from "./chat-hub.server";
import { findGuest, findGuestByExternalId, findRoom, insertMessage } from "./chat-repository.server";
import { derivedKey } from "./chat-tokens.server";

/**
 * Room mode's links (issue 24, item 20; ADR 043): staff make, from the inbox, a signed link that expires in a week
 * and opens one conversation in the patient's portal; the portal opens it only for the signed-in patient whose
 * conversation it is. The link carries no bare room id the server would trust: its claims are HMAC-signed with a key
 * of their own, and every open checks them against the room and the caller's own guest.
 */

/** The query parameter of /paciente that carries a link. */
export const ROOM_LINK_PARAM = "sala";
/** Longer than any link we sign (~200 characters); a longer value is not read at all. */
const MAX_TOKEN_LENGTH = 512;

/** The inbox's 'Crear enlace para el paciente'. */
export const roomLinkActionSchema = z.object({ intent: z.literal("link"), roomId: z.uuid() });

const linkKey = () => derivedKey("chat-room-link-v1");

async function sign(claims: RoomLinkClaims): Promise<string> {
  const payload = Buffer.from(JSON.stringify(roomLinkPayload(claims))).toString("base64url");
  const signature = createHmac("sha256", await linkKey())
    .update(payload)
    .digest("base64url");
  return `${payload}.${signature}`;
}

/** The claims of a link whose signature is ours, or null (malformed, forged, signed for another use). */
export async function verifyRoomLinkToken(token: string): Promise<RoomLinkClaims | null> {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = createHmac("sha256", await linkKey())
    .update(payload)
    .digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return parseRoomLinkPayload(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    return null;
  }
}

/**
 * A link to this conversation for its patient, valid a week. Only a signed-in patient's conversation has a portal
 * to open it in. The inbox keeps an internal note of who made one and until when (never the link itself).
 */
export async function createRoomLink(
  db: Database,
  actor: { id: string },
  roomId: string,
  now: number = Date.now(),
): Promise<{ roomId: string; url: string; expiresAt: string }> {
  const room = await findRoom(db, roomId);
  if (!room) throw new AppError("NOT_FOUND", "La conversación no existe.");
  const guest = await findGuest(db, room.guestId);
  if (!guest || !mayLinkRoom(guest)) {
    throw new AppError(
      "CONFLICT",
      "Esta conversación es de un visitante sin cuenta: no tiene un portal donde abrirla.",
    );
  }
  const expiresAt = now + ROOM_LINK_TTL_MS;
  const token = await sign({ roomId: room.id, guestId: guest.id, expiresAt });
  await ensureListening();
  await insertMessage(db, {
    id: randomUUID(),
    roomId: room.id,
    author: "staff",
    kind: "note",
    staffUserId: actor.id,
    content: `Enlace a esta conversación creado para el paciente; vence el ${formatClinicTimestamp(new Date(expiresAt))}.`,
  });
  const url = `${publicBaseUrl()}/paciente?${new URLSearchParams({ [ROOM_LINK_PARAM]: token }).toString()}`;
  return { roomId: room.id, url, expiresAt: new Date(expiresAt).toISOString() };
}

/**
 * Whether a link opens its room for this signed-in user: the signature, then the room and the user's own chat
 * guest (domain/chat-room-links.ts decides). The room id it returns is then joined through the platform API, which
 * checks membership again.
 */
export async function openRoomLink(
  db: Database,
  user: { id: string },
  token: string,
  now: number = Date.now(),
): Promise<RoomLinkVerdict> {
  const claims = await verifyRoomLinkToken(token);
  const [room, caller] = claims
    ? await Promise.all([
        findRoom(db, claims.roomId),
        findGuestByExternalId(db, env().CHAT_ACCOUNT_ID, user.id),
      ])
    : [undefined, undefined];
  return decideRoomLink({ claims, room: room ?? null, caller: caller ?? null, now });
}
