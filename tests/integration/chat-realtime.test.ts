import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import { AI_NOTICE_VERSION } from "~/features/chat/chat-schema";
import { action, loader } from "~/routes/api/chat";
import { requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";

afterAll(closeDb);

const ACCOUNT = "clinica-chat";

async function api(
  method: string,
  path: string,
  init: { cookie?: string; bearer?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
  const request = requestAs(init.cookie, `/api/chat/${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const args = routeArgs(request, { "*": path.split("?")[0]! });
  return (await (method === "GET" ? loader(args) : action(args))) as Response;
}

interface SseEvent {
  id?: string;
  event: string;
  data: { seq?: number; id?: string; author?: string; content?: string; status?: string };
}

/** Opens the room's stream (optionally resuming) and collects parsed events until told to stop. */
function openStream(roomId: string, token: string, lastEventId?: number) {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  const request = requestAs(undefined, `/api/chat/rooms/${roomId}/events`, {
    headers,
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const done = (async () => {
    const response = (await loader(routeArgs(request, { "*": `rooms/${roomId}/events` }))) as Response;
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toContain("no-transform");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = Object.fromEntries(
            block
              .split("\n")
              .filter((line) => line && !line.startsWith(":"))
              .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
          );
          if (fields.data)
            events.push({ id: fields.id, event: fields.event ?? "message", data: JSON.parse(fields.data) });
        }
      }
    } catch {
      // aborted
    }
  })();
  const messages = () => events.filter((event) => event.event === "message");
  return {
    events,
    messages,
    async waitForMessages(count: number) {
      const deadline = Date.now() + 5000;
      while (messages().length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${messages().length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return messages();
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}

async function roomWithToken() {
  const created = await api("POST", "guest", { body: { account_id: ACCOUNT } });
  const guest = (await created.json()) as { id: string };
  const cookie = created.headers.getSetCookie()[0]!.split(";")[0]!;
  const room = (await (
    await api("POST", "guest/room", {
      cookie,
      body: { account_id: ACCOUNT, guest_id: guest.id, agent_id: "dentist-bot" },
    })
  ).json()) as { room_id: string };
  const login = (await (
    await api("POST", `guest/login?guest_id=${guest.id}&account_id=${ACCOUNT}`, { cookie })
  ).json()) as {
    access_token: string;
  };
  await api("POST", `rooms/${room.room_id}/consent`, {
    bearer: login.access_token,
    body: { version: AI_NOTICE_VERSION, accepted: true },
  });
  return { roomId: room.room_id, token: login.access_token };
}

const send = (roomId: string, token: string, content: string) =>
  api("POST", `rooms/${roomId}/messages`, { bearer: token, body: { id: randomUUID(), content } });

describe("chat room real time (SSE)", () => {
  it("pushes the guest's message and the agent's reply as they are stored", async () => {
    const { roomId, token } = await roomWithToken();
    const stream = openStream(roomId, token);
    expect((await send(roomId, token, "Quiero agendar una cita")).status).toBe(201);
    const [mine, reply] = await stream.waitForMessages(2);
    expect(mine!.data).toMatchObject({ author: "guest", content: "Quiero agendar una cita" });
    expect(reply!.data.author).toBe("agent");
    expect(reply!.data.content).toContain("(/paciente/citas)");
    expect(Number(reply!.id)).toBeGreaterThan(Number(mine!.id));
    await stream.close();
  });

  it("resumes after a disconnect from Last-Event-ID without losing or repeating a message", async () => {
    const { roomId, token } = await roomWithToken();
    const first = openStream(roomId, token);
    await send(roomId, token, "¿Cuáles son los precios?");
    const seen = await first.waitForMessages(2);
    const lastId = Number(seen.at(-1)!.id);
    await first.close();

    // While disconnected: two more exchanges.
    await send(roomId, token, "Quiero agendar una cita");
    await send(roomId, token, "¿qué horario tienen?");

    const resumed = openStream(roomId, token, lastId);
    const missed = await resumed.waitForMessages(4);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resumed.messages()).toHaveLength(4);
    expect(missed.map((event) => event.data.author)).toEqual(["guest", "agent", "guest", "agent"]);
    expect(missed[0]!.data.content).toBe("Quiero agendar una cita");
    expect(missed.every((event) => Number(event.id) > lastId)).toBe(true);
    await resumed.close();
  });

  it("refuses a stream without a valid token, and for a foreign room", async () => {
    const mine = await roomWithToken();
    const other = await roomWithToken();
    const anonymous = await api("GET", `rooms/${mine.roomId}/events`);
    expect(anonymous.status).toBe(401);
    const foreign = await api("GET", `rooms/${mine.roomId}/events`, { bearer: other.token });
    expect(foreign.status).toBe(404);
  });
});
