import { randomUUID } from "node:crypto";
import { matchRoutes } from "react-router";
import { expect } from "vitest";
import { AI_NOTICE_VERSION } from "~/features/chat/chat-schema";
import routeConfig from "~/routes";
import { randomIp, requestAs } from "./clients";
import { routeArgs } from "./route-args";

// The chat platform through its route modules, as the widget calls it: shared by the chat integration tests.

export const ACCOUNT = "clinica-chat";

/** Where a call comes from unless it names an address: one visitor's address for the whole test file. */
const FILE_IP = randomIp();

type Handler = (args: never) => Promise<unknown>;
interface RouteModule {
  loader: Handler;
  action: Handler;
}

// Loaded up front, as the server has them: a call reaches its handler without waiting for a module to load (the
// tests open a stream and send right after, as the widget does).
const modules = import.meta.glob<RouteModule>("/app/routes/api/chat/*.ts", { eager: true });
const chatRoutes = (routeConfig as ReadonlyArray<{ path?: string; file: string }>).filter((route) =>
  route.file.startsWith("routes/api/chat/"),
);

/** The route module routes.ts picks for this path under /api/chat/, and its params, as the router would. */
function chatRoute(path: string) {
  const [match] = matchRoutes([...chatRoutes], `/api/chat/${path.split("?")[0]}`) ?? [];
  if (!match) throw new Error(`no route for /api/chat/${path}`);
  const module = modules[`/app/${match.route.file}`];
  if (!module) throw new Error(`${match.route.file} is not under app/routes/api/chat`);
  return { module, params: match.params as Record<string, string> };
}

/** Calls the route's loader (GET) or action (any other method) with the request. */
export async function callChatRoute(method: string, path: string, request: Request): Promise<Response> {
  const { module, params } = chatRoute(path);
  const handler = method === "GET" ? module.loader : module.action;
  return (await handler(routeArgs(request, params))) as Response;
}

export async function api(
  method: string,
  path: string,
  init: {
    cookie?: string;
    bearer?: string;
    body?: unknown;
    ip?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = { "x-clinica-client-ip": init.ip ?? FILE_IP, ...init.headers };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
  const request = requestAs(init.cookie, `/api/chat/${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return callChatRoute(method, path, request);
}

export interface SseEvent {
  id?: string;
  event: string;
  data: {
    seq?: number;
    id?: string;
    author?: string;
    content?: string;
    status?: string;
    offset?: number;
    delta?: string;
    done?: boolean;
  };
}

/** Opens the room's stream (optionally resuming) and collects parsed events until told to stop. */
export function openStream(roomId: string, token: string, lastEventId?: number) {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  const request = requestAs(undefined, `/api/chat/rooms/${roomId}/events`, {
    headers,
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  // The server's "ready" event: the stream is subscribed, nothing published from now on can be missed.
  const { promise: ready, resolve: markReady } = Promise.withResolvers<void>();
  const done = (async () => {
    const response = await callChatRoute("GET", `rooms/${roomId}/events`, request);
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
          if (fields.event === "ready") markReady();
          else if (fields.data)
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
    /** Resolves once the server says the stream is live; a test that acts first may miss the first events. */
    ready,
    async waitForMessages(count: number) {
      const deadline = Date.now() + 5000;
      while (messages().length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${messages().length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return messages();
    },
    /** True once the server has ended the stream, false if it is still open after `timeoutMs`. */
    ended(timeoutMs: number) {
      return Promise.race([
        done.then(() => !controller.signal.aborted),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs)),
      ]);
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}

/**
 * A new anonymous visitor's room in the bot's hands, nothing written: each visitor from an address of its own, as a
 * file opens more rooms than one address may create guests (30 in ten minutes, chatAddressRules.guest).
 */
export async function newGuestRoom(ip = randomIp()) {
  const created = await api("POST", "guest", { ip, body: { account_id: ACCOUNT } });
  const guest = (await created.json()) as { id: string };
  const cookie = created.headers.getSetCookie()[0]!.split(";")[0]!;
  const room = (await (
    await api("POST", "guest/room", {
      cookie,
      ip,
      body: { account_id: ACCOUNT, guest_id: guest.id, agent_id: "dentist-bot" },
    })
  ).json()) as { room_id: string };
  return { ip, cookie, guestId: guest.id, roomId: room.room_id };
}

/** A new visitor's room (newGuestRoom), logged in and with the AI notice accepted. */
export async function roomWithToken() {
  const { ip, cookie, guestId, roomId } = await newGuestRoom();
  const login = (await (
    await api("POST", `guest/login?guest_id=${guestId}&account_id=${ACCOUNT}`, { cookie, ip })
  ).json()) as {
    access_token: string;
  };
  await api("POST", `rooms/${roomId}/consent`, {
    ip,
    bearer: login.access_token,
    body: { version: AI_NOTICE_VERSION, accepted: true },
  });
  return { roomId, token: login.access_token };
}

export const send = (roomId: string, token: string, content: string) =>
  api("POST", `rooms/${roomId}/messages`, { bearer: token, body: { id: randomUUID(), content } });
