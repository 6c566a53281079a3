import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { ROOM_LINK_REFUSALS, ROOM_LINK_TTL_MS } from "~/domain/chat-room-links";
import { createRoomLink, verifyRoomLinkToken } from "~/features/chat/chat-room-link.server";
import { loader as patientLayout } from "~/routes/_patient/patient-layout";
import { action as inboxAction, loader as inboxLoader } from "~/routes/_staff/conversations";
import { ACCOUNT, api as chatApi, newGuestRoom } from "../setup/chat-api";
import { postAs, requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser, type TestUser } from "../setup/users";

// Issue 24, item 20 (ADR 043): room mode opens an existing room by id, and the server decides who may. A room's own
// guest joins it; a clinic's link (signed, a week long, made in the inbox) opens it only for that room's patient.

afterAll(closeDb);

async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  init: { cookie?: string; bearer?: string; body?: unknown } = {},
) {
  const response = await chatApi(method, path, init);
  return { status: response.status, body: (await response.json()) as T };
}

/** A signed-in patient with a guest, a room with the agent and one message in it. */
async function patientWithRoom(firstName = "Paciente") {
  const user = await createTestUser({ firstName });
  const guest = await api<{ id: string }>("POST", "guest", {
    cookie: user.cookie,
    body: { account_id: ACCOUNT },
  });
  const room = await api<{ room_id: string }>("POST", "guest/room", {
    cookie: user.cookie,
    body: { account_id: ACCOUNT, guest_id: guest.body.id, agent_id: "dentist-bot" },
  });
  const login = await api<{ access_token: string }>(
    "POST",
    `guest/login?guest_id=${guest.body.id}&account_id=${ACCOUNT}`,
    { cookie: user.cookie },
  );
  await api("POST", `rooms/${room.body.room_id}/handoff`, { bearer: login.body.access_token, body: {} });
  await api("POST", `rooms/${room.body.room_id}/messages`, {
    bearer: login.body.access_token,
    body: { id: randomUUID(), content: "Quiero hablar de mi presupuesto" },
  });
  return { user, guestId: guest.body.id, roomId: room.body.room_id, token: login.body.access_token };
}

interface LayoutData {
  chat: { chatMode?: string; roomId?: string | null; openMode?: string | null; openAtOnce?: boolean };
  chatNotice: string | null;
}
const openPortal = (user: TestUser | null, search: string) =>
  settle<LayoutData>(() => patientLayout(routeArgs(requestAs(user?.cookie, `/paciente${search}`))));

const staffLink = (cookie: string, roomId: string) =>
  settle<{
    ok: boolean;
    message?: string;
    data?: { link: { roomId: string; url: string; expiresAt: string } };
  }>(() => inboxAction(routeArgs(postAs(cookie, "/equipo/conversaciones", { intent: "link", roomId }))));

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const tokenOf = (url: string) => new URL(url).searchParams.get("sala")!;

describe("room mode: joining a room by id", () => {
  it("its own patient joins it (the widget's room mode); another patient, a visitor or a bad id get 404", async () => {
    const owner = await patientWithRoom();
    const own = await api("POST", `guest/room/${owner.roomId}/members`, {
      cookie: owner.user.cookie,
      body: { account_id: ACCOUNT, guest_id: owner.guestId },
    });
    expect(own).toMatchObject({
      status: 200,
      body: { room_id: owner.roomId, joined: true, url: `/chat/sala/${owner.roomId}` },
    });

    // Attack: another signed-in patient names the room with their own guest, or with the owner's guest id.
    const other = await patientWithRoom();
    for (const guestId of [other.guestId, owner.guestId]) {
      const join = await api("POST", `guest/room/${owner.roomId}/members`, {
        cookie: other.user.cookie,
        body: { account_id: ACCOUNT, guest_id: guestId },
      });
      expect(join).toMatchObject({ status: 404 });
    }
    // An anonymous visitor with a guest of its own.
    const visitor = await newGuestRoom();
    const anonymous = await api("POST", `guest/room/${owner.roomId}/members`, {
      cookie: visitor.cookie,
      body: { account_id: ACCOUNT, guest_id: visitor.guestId },
    });
    expect(anonymous.status).toBe(404);
    // The other patient's token reads nothing of the room either.
    expect((await api("GET", `rooms/${owner.roomId}`, { bearer: other.token })).status).toBe(404);
    // Not a room id at all: the same 404, not a database error.
    const junk = await api("POST", "guest/room/no-es-una-sala/members", {
      cookie: owner.user.cookie,
      body: { account_id: ACCOUNT, guest_id: owner.guestId },
    });
    expect(junk.status).toBe(404);
  });
});

describe("room mode: the clinic's link", () => {
  it("staff make it in the inbox; it opens the room for its patient only, in room mode", async () => {
    const owner = await patientWithRoom("Rosa");
    const asesor = await createTestUser({ roles: ["asesor"] });
    const made = await staffLink(asesor.cookie, owner.roomId);
    expect(made.status).toBe(200);
    const link = made.body.data!.link;
    expect(link.roomId).toBe(owner.roomId);
    expect(link.url).toMatch(/\/paciente\?sala=[\w-]+\.[\w-]+$/);
    // No bare room id travels in the link.
    expect(link.url).not.toContain(owner.roomId);
    const lifetime = Date.parse(link.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(ROOM_LINK_TTL_MS - 60_000);
    expect(lifetime).toBeLessThanOrEqual(ROOM_LINK_TTL_MS);

    const opened = await openPortal(owner.user, `?sala=${tokenOf(link.url)}`);
    expect(opened.body).toMatchObject({
      chat: { chatMode: "room", roomId: owner.roomId, openAtOnce: true },
      chatNotice: null,
    });

    // The inbox keeps a note that a link was made; the patient's history does not show it.
    const staffView = await settle<{ current: { messages: Array<{ kind: string; content: string }> } }>(() =>
      inboxLoader(routeArgs(requestAs(asesor.cookie, `/equipo/conversaciones?sala=${owner.roomId}`))),
    );
    const note = staffView.body.current.messages.find((message) => message.content.startsWith("Enlace"));
    expect(note).toMatchObject({ kind: "note" });
    expect(note!.content).not.toContain(tokenOf(link.url));
    const history = await api<{ messages: Array<{ content: string }> }>("GET", `rooms/${owner.roomId}`, {
      bearer: owner.token,
    });
    expect(history.body.messages.some((message) => message.content.startsWith("Enlace"))).toBe(false);
  });

  it("attack: a forwarded link opens nothing for another patient, and says only 'not valid'", async () => {
    const owner = await patientWithRoom();
    const asesor = await createTestUser({ roles: ["asesor"] });
    const link = (await staffLink(asesor.cookie, owner.roomId)).body.data!.link;
    const other = await patientWithRoom();
    // Also a patient who never chatted (no guest at all).
    const fresh = await createTestUser();
    for (const user of [other.user, fresh]) {
      const opened = await openPortal(user, `?sala=${tokenOf(link.url)}`);
      expect(opened.body.chat.chatMode).toBeUndefined();
      expect(opened.body.chat.roomId).toBeUndefined();
      expect(opened.body.chatNotice).toBe(ROOM_LINK_REFUSALS.invalid);
    }
    // Signed out: the sign-in page first, and back to the same link afterwards.
    const anonymous = await openPortal(null, `?sala=${tokenOf(link.url)}`);
    expect(anonymous.status).toBe(302);
    expect(decodeURIComponent(anonymous.location!)).toContain(`/paciente?sala=${tokenOf(link.url)}`);
  });

  it("attack: an expired link is refused, even to its patient; a forged or re-signed one is not a link", async () => {
    const owner = await patientWithRoom();
    const db = await getDb();
    const staffId = (await createTestUser({ roles: ["asesor"] })).id;
    const old = await createRoomLink(db, { id: staffId }, owner.roomId, Date.now() - ROOM_LINK_TTL_MS - 1000);
    const expired = await openPortal(owner.user, `?sala=${tokenOf(old.url)}`);
    expect(expired.body.chat.roomId).toBeUndefined();
    expect(expired.body.chatNotice).toBe(ROOM_LINK_REFUSALS.expired);

    const good = tokenOf((await createRoomLink(db, { id: staffId }, owner.roomId)).url);
    const [payload, signature] = good.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const other = await patientWithRoom();
    const forged = [
      // The expiry pushed a year on, the signature kept.
      `${encode({ ...claims, e: Date.now() + 365 * 24 * 3600 * 1000 })}.${signature}`,
      // Another room and guest named under the owner's signature (a patient trying to reach someone else's room).
      `${encode({ ...claims, r: other.roomId, g: other.guestId })}.${signature}`,
      `${payload}.${signature.slice(0, -2)}AA`,
      `${payload}.`,
      payload,
      `${payload}.${signature}.extra`,
      // A chat access token is signed with another key: it is no link.
      owner.token,
      // A bare room id.
      owner.roomId,
      "x".repeat(5000),
    ];
    for (const token of forged) {
      expect(await verifyRoomLinkToken(token)).toBeNull();
      const opened = await openPortal(owner.user, `?sala=${encodeURIComponent(token)}`);
      expect(opened.status).toBe(200);
      expect(opened.body.chat.roomId).toBeUndefined();
      expect(opened.body.chatNotice).toBe(ROOM_LINK_REFUSALS.invalid);
    }
    // The other patient, with the re-pointed claims, opens nothing either.
    const repointed = await openPortal(other.user, `?sala=${encodeURIComponent(forged[1]!)}`);
    expect(repointed.body.chat.roomId).toBeUndefined();
  });

  it("only staff make links, and only for a signed-in patient's conversation", async () => {
    const owner = await patientWithRoom();
    // A patient cannot make a link (not even to their own room).
    expect((await staffLink(owner.user.cookie, owner.roomId)).status).toBe(403);
    const asesor = await createTestUser({ roles: ["asesor"] });
    const visitor = await newGuestRoom();
    const anonymous = await staffLink(asesor.cookie, visitor.roomId);
    expect(anonymous.status).toBe(409);
    expect(anonymous.body.message).toMatch(/visitante sin cuenta/);
    expect((await staffLink(asesor.cookie, randomUUID())).status).toBe(404);
    expect((await staffLink(asesor.cookie, "no-es-uuid")).status).toBe(400);
  });
});

describe("open_mode in the portal's address", () => {
  it("opens the panel at once in a known mode; anything else is the default, closed", async () => {
    const user = await createTestUser();
    for (const mode of ["widget", "fullscreen", "sidebar_left", "sidebar_right"]) {
      const opened = await openPortal(user, `?open_mode=${mode}`);
      expect(opened.body.chat).toMatchObject({ openMode: mode, openAtOnce: true });
      expect(opened.body.chat.chatMode).toBeUndefined();
    }
    for (const search of ["", "?open_mode=sidebar", "?open_mode=FULLSCREEN"]) {
      const opened = await openPortal(user, search);
      expect(opened.body.chat).toMatchObject({ openMode: null, openAtOnce: false });
    }
  });
});
