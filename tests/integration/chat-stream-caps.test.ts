import { existsSync } from "node:fs";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import { chatStreamCaps } from "~/features/chat/chat-rate-limits.server";
import { roomFeeds } from "~/features/chat/chat-room-feed.server";
import { callChatRoute, roomWithToken } from "../setup/chat-api";
import { randomIp, requestAs } from "../setup/clients";
import { projectRoot, startProdServer, type ProdServer } from "../setup/prod-server";

afterAll(closeDb);

// ADR 032: one anonymous guest token opened ~980 event streams in 8 s (memory +100 MB, /healthz 2.7 s).
// Concurrent streams are capped per guest, per room and per client address (ADR 032); past a cap: 429 with
// Retry-After and a Spanish {detail}; a stream that closes, however it closes, gives its slot back.

const { guest: PER_GUEST, address: PER_ADDRESS } = chatStreamCaps();

/** Opens the room's event stream from `ip`; the caller closes it (client abort, or the body cancelled). */
async function connect(roomId: string, token: string, ip: string) {
  const controller = new AbortController();
  const request = requestAs(undefined, `/api/chat/rooms/${roomId}/events`, {
    headers: { authorization: `Bearer ${token}`, "x-clinica-client-ip": ip },
    signal: controller.signal,
  });
  const response = await callChatRoute("GET", `rooms/${roomId}/events`, request);
  return {
    response,
    abort: () => controller.abort(),
    cancel: () => response.body?.cancel(),
  };
}

async function expectCapped(response: Response) {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  const body = (await response.json()) as { detail: string };
  expect(body.detail).toMatch(/conexiones abiertas al chat/);
}

type Open = Awaited<ReturnType<typeof connect>>;
const streams: Open[] = [];

async function open(roomId: string, token: string, ip: string) {
  const stream = await connect(roomId, token, ip);
  if (stream.response.status === 200) streams.push(stream);
  return stream.response;
}

async function closeAll() {
  for (const stream of streams.splice(0)) stream.abort();
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A slot comes back when the server has seen the close: at the latest a few event-loop turns later. */
async function eventually(attempt: () => Promise<Response>) {
  for (let tries = 0; ; tries++) {
    const response = await attempt();
    if (response.status !== 429 || tries > 50) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("event stream caps", () => {
  it("has the caps of ADR 032 by default: 5 streams per guest and room, 20 per address", () => {
    expect(chatStreamCaps()).toEqual({ guest: 5, room: 5, address: 20 });
  });

  it("attack: one guest token opens at most 5 streams; the 6th gets 429 with Retry-After", async () => {
    const room = await roomWithToken();
    const ip = randomIp();
    for (let index = 0; index < PER_GUEST; index++) {
      expect((await open(room.roomId, room.token, ip)).status).toBe(200);
    }
    await expectCapped(await open(room.roomId, room.token, ip));
    // The same token from other addresses is the same guest: still capped.
    await expectCapped(await open(room.roomId, room.token, randomIp()));
    // Another guest at the same address is not this guest's flood.
    const neighbour = await roomWithToken();
    expect((await open(neighbour.roomId, neighbour.token, ip)).status).toBe(200);
    await closeAll();
  });

  it("attack: many guests from one address are capped per address; another address still opens", async () => {
    const ip = randomIp();
    // Each guest stays under its own cap, so only the address's can refuse.
    const perGuest = PER_GUEST - 1;
    const guests = Math.ceil(PER_ADDRESS / perGuest);
    const rooms = await Promise.all(Array.from({ length: guests + 1 }, () => roomWithToken()));
    let opened = 0;
    for (const room of rooms.slice(0, -1)) {
      for (let index = 0; index < perGuest && opened < PER_ADDRESS; index++) {
        expect((await open(room.roomId, room.token, ip)).status).toBe(200);
        opened += 1;
      }
    }
    const last = rooms.at(-1)!;
    const refused = await open(last.roomId, last.token, ip);
    await expectCapped(refused.clone());
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/desde tu conexión/);
    expect((await open(last.roomId, last.token, randomIp())).status).toBe(200);
    await closeAll();
  });

  it("a stream that closes frees its slot: the client going away, or its body cancelled", async () => {
    const room = await roomWithToken();
    const ip = randomIp();
    const held: Open[] = [];
    for (let index = 0; index < PER_GUEST; index++) {
      const stream = await connect(room.roomId, room.token, ip);
      expect(stream.response.status).toBe(200);
      held.push(stream);
    }
    await expectCapped((await connect(room.roomId, room.token, ip)).response);

    // The client disconnects (the server aborts the request's signal).
    held.shift()!.abort();
    const afterAbort = await eventually(async () => (await connect(room.roomId, room.token, ip)).response);
    expect(afterAbort.status).toBe(200);
    await afterAbort.body?.cancel();

    // The response body is cancelled (what the HTTP layer does when the socket closes mid-write).
    await held.shift()!.cancel();
    const afterCancel = await eventually(async () => {
      const next = await connect(room.roomId, room.token, ip);
      if (next.response.status === 200) held.push(next);
      return next.response;
    });
    expect(afterCancel.status).toBe(200);

    for (const stream of held) stream.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Nothing is left behind once every stream is closed: all five slots are free again.
    expect(roomFeeds.size()).toBe(0);
    for (let index = 0; index < PER_GUEST; index++) {
      const again = await connect(room.roomId, room.token, ip);
      expect(again.response.status).toBe(200);
      streams.push(again);
    }
    await closeAll();
  });

  it("a client's abort closes its stream even once the handler's Request object was garbage-collected", async () => {
    // undici makes a Request's signal follow its parent signal through a WeakRef: if nothing holds the Request, the
    // parent's abort never reaches the stream and its slot and feed stay taken. The stream must hold its request.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const room = await roomWithToken();
    const ip = randomIp();
    const held: Open[] = [];
    for (let index = 0; index < PER_GUEST; index++) held.push(await connect(room.roomId, room.token, ip));
    for (const stream of held) expect(stream.response.status).toBe(200);
    for (let round = 0; round < 3; round++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const stream of held) stream.abort();
    const again = await eventually(async () => (await connect(room.roomId, room.token, ip)).response);
    expect(again.status).toBe(200);
    await again.body?.cancel();
    expect(roomFeeds.size()).toBe(0);
  });

  it("a request that is already aborted when its stream starts takes no slot", async () => {
    const room = await roomWithToken();
    const ip = randomIp();
    for (let index = 0; index < PER_GUEST + 2; index++) {
      const controller = new AbortController();
      controller.abort();
      const request = requestAs(undefined, `/api/chat/rooms/${room.roomId}/events`, {
        headers: { authorization: `Bearer ${room.token}`, "x-clinica-client-ip": ip },
        signal: controller.signal,
      });
      const response = await callChatRoute("GET", `rooms/${room.roomId}/events`, request);
      expect(response.status).not.toBe(429);
      await response.body?.cancel();
    }
    expect((await open(room.roomId, room.token, ip)).status).toBe(200);
    await closeAll();
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))("event stream caps on the production server", () => {
  let server: ProdServer;
  const url = (pathname: string) => `http://127.0.0.1:${server.port}/api/chat/${pathname}`;

  beforeAll(async () => {
    if (!existsSync(path.join(projectRoot, "build/server/index.js"))) {
      throw new Error("run `npx react-router build` first");
    }
    server = await startProdServer({ DATA_DIR: "memory://" });
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("attack: a client that opens 6 streams gets 429 on the 6th; one that disconnects frees its slot", async () => {
    const json = { "content-type": "application/json" };
    const created = await fetch(url("guest"), {
      method: "POST",
      headers: json,
      body: JSON.stringify({ account_id: "clinica-chat" }),
    });
    const cookie = created.headers.getSetCookie()[0]!.split(";")[0]!;
    const guest = (await created.json()) as { id: string };
    const room = (await (
      await fetch(url("guest/room"), {
        method: "POST",
        headers: { ...json, cookie },
        body: JSON.stringify({ account_id: "clinica-chat", guest_id: guest.id, agent_id: "dentist-bot" }),
      })
    ).json()) as { room_id: string };
    const tokens = (await (
      await fetch(url(`guest/login?guest_id=${guest.id}&account_id=clinica-chat`), {
        method: "POST",
        headers: { cookie },
      })
    ).json()) as { access_token: string };
    const connectOverHttp = async () => {
      const controller = new AbortController();
      const response = await fetch(url(`rooms/${room.room_id}/events`), {
        headers: { authorization: `Bearer ${tokens.access_token}` },
        signal: controller.signal,
      });
      return { response, controller };
    };

    const held = [];
    for (let index = 0; index < PER_GUEST; index++) {
      const stream = await connectOverHttp();
      expect(stream.response.status).toBe(200);
      held.push(stream);
    }
    const sixth = await connectOverHttp();
    expect(sixth.response.status).toBe(429);
    expect(sixth.response.headers.get("retry-after")).toBe("10");
    expect(((await sixth.response.json()) as { detail: string }).detail).toMatch(
      /^Tienes demasiadas conexiones abiertas al chat/,
    );

    // The client goes away: its socket closes and the server gives the slot back.
    held.shift()!.controller.abort();
    let again = await connectOverHttp();
    for (let tries = 0; again.response.status === 429 && tries < 50; tries++) {
      await again.response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await connectOverHttp();
    }
    expect(again.response.status).toBe(200);
    held.push(again);
    for (const stream of held) stream.controller.abort();
  });
});
