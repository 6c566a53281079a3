import { describe, expect, it } from "vitest";
import {
  decideRoomLink,
  mayLinkRoom,
  parseRoomLinkPayload,
  ROOM_LINK_REFUSALS,
  ROOM_LINK_TTL_MS,
  roomLinkPayload,
} from "./chat-room-links";

// Issue 24, item 20 (ADR 043): a clinic's link opens a room only for the signed-in patient whose room it is.

const ROOM = "11111111-1111-4111-8111-111111111111";
const GUEST = "22222222-2222-4222-8222-222222222222";
const OTHER = "33333333-3333-4333-8333-333333333333";
const NOW = Date.UTC(2026, 10, 27, 12);
const claims = { roomId: ROOM, guestId: GUEST, expiresAt: NOW + 1000 };
const room = { id: ROOM, guestId: GUEST, accountId: "clinica-chat" };
const caller = { id: GUEST, accountId: "clinica-chat" };

describe("the link's payload", () => {
  it("round-trips, and anything else is not a link", () => {
    expect(parseRoomLinkPayload(JSON.parse(JSON.stringify(roomLinkPayload(claims))))).toEqual(claims);
    for (const bad of [
      null,
      "x",
      {},
      { ...roomLinkPayload(claims), v: 2 },
      { ...roomLinkPayload(claims), r: "no-es-uuid" },
      { ...roomLinkPayload(claims), g: 7 },
      { ...roomLinkPayload(claims), e: "mañana" },
      { ...roomLinkPayload(claims), e: 1.5 },
    ])
      expect(parseRoomLinkPayload(bad)).toBeNull();
  });
  it("lives a week", () => {
    expect(ROOM_LINK_TTL_MS).toBe(7 * 24 * 60 * 60 * 1000);
  });
});

describe("decideRoomLink", () => {
  it("opens the room for its own guest while the link is alive", () => {
    expect(decideRoomLink({ claims, room, caller, now: NOW })).toEqual({ ok: true, roomId: ROOM });
  });

  it.each([
    ["a forged or malformed token", { claims: null }],
    ["a room that no longer exists", { room: null }],
    ["a caller with no chat guest", { caller: null }],
    ["another patient (a forwarded link)", { caller: { id: OTHER, accountId: "clinica-chat" } }],
    ["a claim naming another room", { claims: { ...claims, roomId: OTHER } }],
    ["a claim naming another guest", { claims: { ...claims, guestId: OTHER } }],
    ["a room of another account", { room: { ...room, accountId: "otra" } }],
    [
      "another patient holding an expired link (never told it was genuine)",
      { caller: { id: OTHER, accountId: "clinica-chat" }, claims: { ...claims, expiresAt: NOW - 1 } },
    ],
  ])("refuses %s as invalid", (_label, change) => {
    expect(decideRoomLink({ claims, room, caller, now: NOW, ...change })).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("says 'expired' to its own patient once the week is over (at the instant itself too)", () => {
    for (const expiresAt of [NOW, NOW - 1])
      expect(decideRoomLink({ claims: { ...claims, expiresAt }, room, caller, now: NOW })).toEqual({
        ok: false,
        reason: "expired",
      });
    expect(ROOM_LINK_REFUSALS.expired).toMatch(/venció/);
  });
});

describe("mayLinkRoom", () => {
  it("only a signed-in patient's conversation", () => {
    expect(mayLinkRoom({ externalId: "user-1" })).toBe(true);
    expect(mayLinkRoom({ externalId: null })).toBe(false);
    expect(mayLinkRoom(null)).toBe(false);
  });
});
