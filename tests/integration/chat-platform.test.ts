import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { updateRoom } from "~/features/chat/chat-repository.server";
import { AI_NOTICE_VERSION } from "~/features/chat/chat-schema";
import { ACCOUNT, api } from "../setup/chat-api";
import { createTestUser } from "../setup/users";

afterAll(closeDb);

const AGENT = "dentist-bot";

interface Answer {
  status: number;
  body: Record<string, unknown> & { detail?: string };
  setCookie: string[];
}

/** Calls /api/chat/<path> as the given cookie (session and/or guest cookie) and optional bearer token. */
async function call(
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; bearer?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await api(method, path, options);
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Answer["body"]) : {},
    setCookie: response.headers.getSetCookie(),
  };
}

const cookiePair = (setCookie: string[]) => setCookie.map((cookie) => cookie.split(";")[0]).join("; ");

async function anonymousGuest() {
  const created = await call("POST", "guest", { body: { account_id: ACCOUNT } });
  expect(created.status).toBe(201);
  return { guest: created.body, cookie: cookiePair(created.setCookie) };
}

async function loggedIn(cookie: string, guestId: string) {
  const login = await call("POST", `guest/login?guest_id=${guestId}&account_id=${ACCOUNT}`, { cookie });
  expect(login.status).toBe(200);
  return login.body as { access_token: string; refresh_token: string; expires_at: string };
}

describe("guest chat platform API", () => {
  it("creates an anonymous guest with the spec's defaults, bound to the browser by an httpOnly cookie", async () => {
    const created = await call("POST", "guest", { body: { account_id: ACCOUNT } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ first_name: "Anonymous", last_name: "Visitor", external_id: null });
    expect(created.setCookie[0]).toMatch(/^chat_guest=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it("answers 404 for an unknown account_id and 400 {detail} for a bad body", async () => {
    const unknown = await call("POST", "guest", { body: { account_id: "otra-cuenta" } });
    expect(unknown).toMatchObject({ status: 404, body: { detail: "Account not found" } });
    const bad = await call("POST", "guest", { body: { account_id: ACCOUNT, email: "no-es-correo" } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/email/);
    const extra = await call("POST", "guest", { body: { account_id: ACCOUNT, admin: true } });
    expect(extra.status).toBe(400);
    const notJson = await call("POST", "guest", {
      body: undefined,
      headers: { "content-type": "application/json" },
    });
    expect(notJson).toMatchObject({ status: 400, body: { detail: "The body is not JSON" } });
  });

  it("gives a signed-in user one guest with external_id = user id and names from the account", async () => {
    const user = await createTestUser({ firstName: "Ana María" });
    const first = await call("POST", "guest", {
      cookie: user.cookie,
      body: { account_id: ACCOUNT, external_id: user.id },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      external_id: user.id,
      first_name: "Ana",
      last_name: "María",
      email: user.email,
    });
    const again = await call("POST", "guest", { cookie: user.cookie, body: { account_id: ACCOUNT } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const found = await call("GET", `guest?external_id=${user.id}&account_id=${ACCOUNT}`, {
      cookie: user.cookie,
    });
    expect(found).toMatchObject({ status: 200, body: { id: first.body.id } });
    const renamed = await call("PUT", `guest/${String(first.body.id)}`, {
      cookie: user.cookie,
      body: { phone: "+56911112222" },
    });
    expect(renamed).toMatchObject({ status: 200, body: { phone: "+56911112222" } });
  });

  it("attack: another user's external_id cannot be created, read, updated or logged in as", async () => {
    const victim = await createTestUser();
    const attacker = await createTestUser();
    const victimGuest = await call("POST", "guest", { cookie: victim.cookie, body: { account_id: ACCOUNT } });
    const claim = await call("POST", "guest", {
      cookie: attacker.cookie,
      body: { account_id: ACCOUNT, external_id: victim.id },
    });
    expect(claim.status).toBe(403);
    const anonymousClaim = await call("POST", "guest", {
      body: { account_id: ACCOUNT, external_id: victim.id },
    });
    expect(anonymousClaim.status).toBe(401);
    const read = await call("GET", `guest?external_id=${victim.id}&account_id=${ACCOUNT}`, {
      cookie: attacker.cookie,
    });
    expect(read).toMatchObject({ status: 404, body: { detail: "Guest not found" } });
    const update = await call("PUT", `guest/${String(victimGuest.body.id)}`, {
      cookie: attacker.cookie,
      body: { first_name: "Pirata" },
    });
    expect(update.status).toBe(404);
    const login = await call(
      "POST",
      `guest/login?guest_id=${String(victimGuest.body.id)}&account_id=${ACCOUNT}`,
      {
        cookie: attacker.cookie,
      },
    );
    expect(login.status).toBe(404);
  });

  it("attack: a foreign anonymous guest_id or room_id gives nothing without its browser cookie", async () => {
    const victim = await anonymousGuest();
    const attacker = await anonymousGuest();
    const victimRoom = await call("POST", "guest/room", {
      cookie: victim.cookie,
      body: { account_id: ACCOUNT, guest_id: victim.guest.id, agent_id: AGENT },
    });
    expect(victimRoom.status).toBe(201);
    expect(victimRoom.body).toMatchObject({ account_id: ACCOUNT, agent: { id: AGENT } });
    expect(victimRoom.body.url).toBe(`/chat/sala/${String(victimRoom.body.room_id)}`);
    const roomId = String(victimRoom.body.room_id);

    for (const cookie of [attacker.cookie, undefined]) {
      const login = await call(
        "POST",
        `guest/login?guest_id=${String(victim.guest.id)}&account_id=${ACCOUNT}`,
        { cookie },
      );
      expect(login.status).toBe(404);
      const room = await call("POST", "guest/room", {
        cookie,
        body: { account_id: ACCOUNT, guest_id: victim.guest.id, agent_id: AGENT },
      });
      expect(room.status).toBe(404);
    }
    const join = await call("POST", `guest/room/${roomId}/members`, {
      cookie: attacker.cookie,
      body: { account_id: ACCOUNT, guest_id: attacker.guest.id },
    });
    expect(join.status).toBe(404);
    const attackerToken = await loggedIn(attacker.cookie, String(attacker.guest.id));
    const read = await call("GET", `rooms/${roomId}`, { bearer: attackerToken.access_token });
    expect(read).toMatchObject({ status: 404, body: { detail: "Room not found" } });
    const post = await call("POST", `rooms/${roomId}/messages`, {
      bearer: attackerToken.access_token,
      body: { id: randomUUID(), content: "hola" },
    });
    expect(post.status).toBe(404);
    const forged = await call("GET", `rooms/${roomId}`, {
      bearer: `${attackerToken.access_token.split(".")[0]}.AAAA`,
    });
    expect(forged.status).toBe(401);
  });

  it("rejoins the guest's open room and lets its own guest re-add itself as member", async () => {
    const me = await anonymousGuest();
    const body = { account_id: ACCOUNT, guest_id: me.guest.id, agent_id: AGENT };
    const first = await call("POST", "guest/room", { cookie: me.cookie, body });
    const second = await call("POST", "guest/room", { cookie: me.cookie, body });
    expect(second.status).toBe(200);
    expect(second.body.room_id).toBe(first.body.room_id);
    const join = await call("POST", `guest/room/${String(first.body.room_id)}/members`, {
      cookie: me.cookie,
      body: { account_id: ACCOUNT, guest_id: me.guest.id },
    });
    expect(join).toMatchObject({ status: 200, body: { joined: true } });
    const unknownAgent = await call("POST", "guest/room", {
      cookie: me.cookie,
      body: { ...body, agent_id: "otro" },
    });
    expect(unknownAgent.status).toBe(404);
  });

  it("logs in with 15-minute access tokens; refresh rotates, and a reused refresh token revokes the family", async () => {
    const me = await anonymousGuest();
    const before = Date.now();
    const login = await call("POST", `guest/login?guest_id=${String(me.guest.id)}&account_id=${ACCOUNT}`, {
      cookie: me.cookie,
    });
    expect(login.status).toBe(200);
    expect(login.body.guest).toMatchObject({ id: me.guest.id });
    const expiresAt = Date.parse(String(login.body.expires_at));
    expect(expiresAt - before).toBeGreaterThan(14 * 60_000);
    expect(expiresAt - before).toBeLessThanOrEqual(15 * 60_000 + 1000);

    const rotated = await call("POST", "guest/token/refresh", {
      body: { refresh_token: login.body.refresh_token, jid: false },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(login.body.refresh_token);

    // The old token again: someone kept a copy. It fails, and so does the newest one of its family.
    const replay = await call("POST", "guest/token/refresh", {
      body: { refresh_token: login.body.refresh_token, jid: false },
    });
    expect(replay).toMatchObject({ status: 401, body: { detail: "Refresh token reuse detected" } });
    const newest = await call("POST", "guest/token/refresh", {
      body: { refresh_token: rotated.body.refresh_token, jid: false },
    });
    expect(newest.status).toBe(401);
    const garbage = await call("POST", "guest/token/refresh", {
      body: { refresh_token: "x".repeat(43), jid: false },
    });
    expect(garbage).toMatchObject({ status: 401, body: { detail: "Invalid refresh token" } });
  });

  it("stores text messages up to 4,000 characters once per client id, after the AI notice is accepted", async () => {
    const me = await anonymousGuest();
    const room = await call("POST", "guest/room", {
      cookie: me.cookie,
      body: { account_id: ACCOUNT, guest_id: me.guest.id, agent_id: AGENT },
    });
    const roomId = String(room.body.room_id);
    const { access_token: token } = await loggedIn(me.cookie, String(me.guest.id));

    const early = await call("POST", `rooms/${roomId}/messages`, {
      bearer: token,
      body: { id: randomUUID(), content: "hola" },
    });
    expect(early.status).toBe(409);
    const consent = await call("POST", `rooms/${roomId}/consent`, {
      bearer: token,
      body: { version: AI_NOTICE_VERSION, accepted: true },
    });
    expect(consent.status).toBe(200);
    expect(consent.body.ai_consent).toMatchObject({ version: AI_NOTICE_VERSION });

    const tooLong = await call("POST", `rooms/${roomId}/messages`, {
      bearer: token,
      body: { id: randomUUID(), content: "a".repeat(4001) },
    });
    expect(tooLong.status).toBe(400);
    const image = await call("POST", `rooms/${roomId}/messages`, {
      bearer: token,
      body: { id: randomUUID(), type: "image", content: "https://evil.example/x.png" },
    });
    expect(image.status).toBe(400);

    const id = randomUUID();
    const script = "<script>alert(1)</script> " + "a".repeat(3970);
    const sent = await call("POST", `rooms/${roomId}/messages`, {
      bearer: token,
      body: { id, content: script },
    });
    expect(sent.status).toBe(201);
    const retry = await call("POST", `rooms/${roomId}/messages`, {
      bearer: token,
      body: { id, content: script },
    });
    expect(retry).toMatchObject({ status: 200, body: { duplicate: true } });

    const history = await call("GET", `rooms/${roomId}`, { bearer: token });
    const messages = history.body.messages as Array<{ id: string; author: string; content: string }>;
    expect(messages.filter((message) => message.id === id)).toHaveLength(1);
    expect(messages.find((message) => message.id === id)?.content).toBe(script);
    expect(messages.some((message) => message.author === "agent")).toBe(true);
  });

  it("attack: a message id from another room, a closed room and a malformed room id store nothing", async () => {
    const me = await anonymousGuest();
    const other = await anonymousGuest();
    const rooms: string[] = [];
    const tokens: string[] = [];
    for (const who of [me, other]) {
      const room = await call("POST", "guest/room", {
        cookie: who.cookie,
        body: { account_id: ACCOUNT, guest_id: who.guest.id, agent_id: AGENT },
      });
      const { access_token: token } = await loggedIn(who.cookie, String(who.guest.id));
      await call("POST", `rooms/${String(room.body.room_id)}/handoff`, { bearer: token, body: {} });
      rooms.push(String(room.body.room_id));
      tokens.push(token);
    }
    const id = randomUUID();
    const mine = await call("POST", `rooms/${rooms[0]}/messages`, {
      bearer: tokens[0],
      body: { id, content: "primero" },
    });
    expect(mine.status).toBe(201);
    // The other guest replays my client id into its own room: refused, and my message is not revealed.
    const replay = await call("POST", `rooms/${rooms[1]}/messages`, {
      bearer: tokens[1],
      body: { id, content: "copia" },
    });
    expect(replay).toMatchObject({ status: 409, body: { detail: "Message id already used" } });
    expect(JSON.stringify(replay.body)).not.toContain("primero");

    const malformed = await call("POST", `rooms/not-a-room/messages`, {
      bearer: tokens[0],
      body: { id: randomUUID(), content: "hola" },
    });
    expect(malformed.status).toBe(404);

    await updateRoom(await getDb(), rooms[0]!, { status: "resolved" });
    const late = await call("POST", `rooms/${rooms[0]}/messages`, {
      bearer: tokens[0],
      body: { id: randomUUID(), content: "¿sigue ahí?" },
    });
    expect(late).toMatchObject({ status: 409, body: { detail: "This conversation is closed" } });
    const history = await call("GET", `rooms/${rooms[0]}`, { bearer: tokens[0] });
    const contents = (history.body.messages as Array<{ content: string }>).map((message) => message.content);
    expect(contents).toContain("primero");
    expect(contents).not.toContain("¿sigue ahí?");
  });
});
