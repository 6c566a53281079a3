/**
 * Links to a chat room that the clinic sends a patient (room mode; issue 24, item 20; ADR 043). A link carries a
 * signed, expiring claim naming the room and its guest; it grants nothing by itself: it opens the room only for the
 * signed-in patient whose conversation it is. Pure: signing and verifying the signature are the chat feature's.
 */

/** How long a link opens its room: a week covers "we answered you, continue here" without living for ever. */
export const ROOM_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface RoomLinkClaims {
  roomId: string;
  guestId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The signed payload: `{v: 1, r: room, g: guest, e: expiry}`. */
export function roomLinkPayload(claims: RoomLinkClaims) {
  return { v: 1, r: claims.roomId, g: claims.guestId, e: claims.expiresAt };
}

/** The claims of a (signature-checked) payload, or null when it is not one of ours. */
export function parseRoomLinkPayload(value: unknown): RoomLinkClaims | null {
  if (!value || typeof value !== "object") return null;
  const { v, r, g, e } = value as Record<string, unknown>;
  if (v !== 1 || typeof r !== "string" || typeof g !== "string" || typeof e !== "number") return null;
  if (!UUID.test(r) || !UUID.test(g) || !Number.isSafeInteger(e)) return null;
  return { roomId: r, guestId: g, expiresAt: e };
}

export type RoomLinkRefusal = "invalid" | "expired";
export type RoomLinkVerdict = { ok: true; roomId: string } | { ok: false; reason: RoomLinkRefusal };

interface RoomFacts {
  id: string;
  guestId: string;
  accountId: string;
}
interface GuestFacts {
  id: string;
  accountId: string;
}

/**
 * Whether a link opens its room for this caller. `claims` is null when the token was malformed or its signature
 * wrong; `caller` is the signed-in person's own chat guest (null if they have none). The room must still be the one
 * named, with the guest named, and that guest must be the caller's: a forwarded link opens nothing for anyone else.
 * Membership is decided before expiry, so someone else's link never tells them more than "invalid".
 */
export function decideRoomLink(input: {
  claims: RoomLinkClaims | null;
  room: RoomFacts | null;
  caller: GuestFacts | null;
  now: number;
}): RoomLinkVerdict {
  const { claims, room, caller, now } = input;
  if (!claims || !room || !caller) return { ok: false, reason: "invalid" };
  if (room.id !== claims.roomId || room.guestId !== claims.guestId) return { ok: false, reason: "invalid" };
  if (caller.id !== room.guestId || caller.accountId !== room.accountId)
    return { ok: false, reason: "invalid" };
  if (claims.expiresAt <= now) return { ok: false, reason: "expired" };
  return { ok: true, roomId: room.id };
}

/** What the patient reads when a link does not open (the same for a forged link and someone else's). */
export const ROOM_LINK_REFUSALS: Record<RoomLinkRefusal, string> = {
  invalid:
    "No pudimos abrir esa conversación: el enlace no es válido para tu cuenta. Si te lo envió la clínica, revisa que hayas ingresado con la misma cuenta.",
  expired: "El enlace a esa conversación venció. Pide uno nuevo a la clínica o escríbenos por el chat.",
};

/** Only a signed-in patient's conversation can be linked: an anonymous visitor has no portal to open it in. */
export function mayLinkRoom(guest: { externalId: string | null } | null): boolean {
  return Boolean(guest?.externalId);
}
