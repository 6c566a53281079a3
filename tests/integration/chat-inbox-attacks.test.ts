import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { chatRooms, sessions } from "~/db/schema";
import { action as signOutAction } from "~/routes/_auth/sign-out";
import { loader as eventsLoader } from "~/routes/_staff/conversation-events";
import { action as inboxAction, loader as inboxLoader } from "~/routes/_staff/conversations";
import { api, newGuestRoom, roomWithToken, send } from "../setup/chat-api";
import { clientForm, postAs, requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser } from "../setup/users";

// ADR 033: the staff inbox attacked — flooded with empty rooms, a colleague's
// conversation taken over, and its event stream kept alive after sign-out or as a keep-alive for the idle timeout.

afterAll(closeDb);

interface ListedRoom {
  id: string;
  status: string;
  handoffReason: string | null;
  urgent?: boolean;
}

const inbox = (cookie: string, search = "") =>
  settle<{ rooms: ListedRoom[]; current: { status: string; assignedTo: string | null } | null }>(() =>
    inboxLoader(routeArgs(requestAs(cookie, `/equipo/conversaciones${search}`))),
  );

const staffDo = (cookie: string, fields: Record<string, string>) =>
  settle<{ ok: boolean; message?: string }>(() =>
    inboxAction(routeArgs(postAs(cookie, "/equipo/conversaciones", fields))),
  );

async function roomRow(roomId: string) {
  const db = await getDb();
  const [row] = await db.select().from(chatRooms).where(eq(chatRooms.id, roomId));
  return row!;
}

/** An anonymous guest's room in the bot's hands, nothing written; each from an address of its own (a flood). */
const emptyRoom = async () => (await newGuestRoom()).roomId;

async function inBatches<T>(count: number, make: (index: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let start = 0; start < count; start += 10) {
    const size = Math.min(10, count - start);
    made.push(...(await Promise.all(Array.from({ length: size }, (_, offset) => make(start + offset)))));
  }
  return made;
}

describe("item 8: a flood of anonymous rooms does not hide a waiting conversation", () => {
  it("an urgent handoff stays first in the waiting section after 250 anonymous rooms; empty rooms are not listed", async () => {
    const urgent = await roomWithToken();
    expect((await send(urgent.roomId, urgent.token, "Tengo la cara hinchada y fiebre")).status).toBe(201);
    expect((await roomRow(urgent.roomId)).status).toBe("pending_human");

    // The flood: 100 rooms with nothing written, 100 with a guest message, 50 handed off by the guest with the
    // agent's own "Posible urgencia" as their reason.
    const empty = await inBatches(100, () => emptyRoom());
    await inBatches(100, async () => {
      const room = await roomWithToken();
      await send(room.roomId, room.token, "hola");
    });
    const fakeUrgent = await inBatches(50, async () => {
      const room = await roomWithToken();
      await api("POST", `rooms/${room.roomId}/handoff`, {
        bearer: room.token,
        body: { reason: "Posible urgencia" },
      });
      await send(room.roomId, room.token, "hola");
      return room.roomId;
    });

    const asesor = await createTestUser({ roles: ["asesor"] });
    const page = await inbox(asesor.cookie);
    expect(page.status).toBe(200);
    const waiting = page.body.rooms.filter((room) => room.status === "pending_human");
    const listed = waiting.find((room) => room.id === urgent.roomId);
    expect(listed).toMatchObject({ handoffReason: "Posible urgencia", urgent: true });
    // Urgent first: no ordinary waiting room above an urgent one.
    const firstOrdinary = waiting.findIndex((room) => !room.urgent);
    expect(waiting.indexOf(listed!)).toBeLessThan(firstOrdinary === -1 ? Infinity : firstOrdinary);
    // A guest cannot make its own handoff urgent by naming the agent's reason.
    expect(waiting.filter((room) => fakeUrgent.includes(room.id)).every((room) => !room.urgent)).toBe(true);

    const listedIds = new Set(page.body.rooms.map((room) => room.id));
    expect(empty.filter((id) => listedIds.has(id))).toEqual([]);
  }, 120_000);
});

/** A waiting conversation taken by asesor A; asesor B is her colleague. */
async function takenByA() {
  const room = await roomWithToken();
  await api("POST", `rooms/${room.roomId}/handoff`, { bearer: room.token, body: {} });
  await send(room.roomId, room.token, "Necesito ayuda con mi pago");
  const [a, b] = await Promise.all([
    createTestUser({ roles: ["asesor"] }),
    createTestUser({ roles: ["asesor"] }),
  ]);
  expect((await staffDo(a.cookie, { intent: "take", roomId: room.roomId })).status).toBe(200);
  return { roomId: room.roomId, a, b };
}

describe("item 12: only the assignee or an admin hands back, resolves or takes over", () => {
  it("asesor B cannot hand back, resolve or take over asesor A's conversation (403, nothing changes)", async () => {
    const { roomId, a, b } = await takenByA();
    const before = await roomRow(roomId);
    const attempts = [];
    for (const intent of ["handback", "resolve", "take"]) {
      const attempt = await staffDo(b.cookie, { intent, roomId });
      attempts.push({
        intent,
        status: attempt.status,
        refused: /administrador/.test(attempt.body.message ?? ""),
      });
    }
    expect(attempts).toEqual([
      { intent: "handback", status: 403, refused: true },
      { intent: "resolve", status: 403, refused: true },
      { intent: "take", status: 403, refused: true },
    ]);
    const after = await roomRow(roomId);
    expect(after).toMatchObject({ status: "open", assignedTo: a.id });
    expect(after.updatedAt.getTime()).toBe(before.updatedAt.getTime());

    // The page shows B none of those buttons, and A hers.
    const seenByB = await inbox(b.cookie, `?sala=${roomId}`);
    expect(seenByB.body.current).toMatchObject({
      allowed: { take: false, handback: false, resolve: false, reply: false },
    });
    const seenByA = await inbox(a.cookie, `?sala=${roomId}`);
    expect(seenByA.body.current).toMatchObject({
      allowed: { take: false, handback: true, resolve: true, reply: true },
    });
  });

  it("an admin may take a colleague's conversation over; the assignee may hand back and resolve", async () => {
    const { roomId, a } = await takenByA();
    const admin = await createTestUser({ roles: ["admin"] });
    expect((await staffDo(admin.cookie, { intent: "take", roomId })).status).toBe(200);
    expect(await roomRow(roomId)).toMatchObject({ status: "open", assignedTo: admin.id });
    // A is no longer the assignee.
    expect((await staffDo(a.cookie, { intent: "resolve", roomId })).status).toBe(403);
    expect((await staffDo(admin.cookie, { intent: "handback", roomId })).status).toBe(200);
    expect(await roomRow(roomId)).toMatchObject({ status: "bot", assignedTo: null });
  });
});

// --- item 15 -------------------------------------------------------------------------------------------------

function tokenOf(cookie: string) {
  return decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
}

async function sessionRow(cookie: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.token, tokenOf(cookie)));
  return row;
}

async function idleFor(cookie: string, minutes: number) {
  const db = await getDb();
  await db
    .update(sessions)
    .set({ updatedAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(sessions.token, tokenOf(cookie)));
}

/** Opens the inbox's event stream as `cookie` and records its `changed` events and whether it ended. */
async function openInboxStream(cookie: string) {
  const controller = new AbortController();
  const request = requestAs(cookie, "/equipo/conversaciones/eventos", {
    headers: { accept: "text/event-stream" },
    signal: controller.signal,
  });
  const response = (await eventsLoader(routeArgs(request))) as Response;
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const state = { changed: [] as string[], ended: false };
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        for (const match of value.matchAll(/event: changed\ndata: (.+)\n/g)) {
          state.changed.push((JSON.parse(match[1]!) as { roomId: string }).roomId);
        }
      }
    } catch {
      // aborted
    }
    state.ended = true;
  })();
  return {
    state,
    async close() {
      controller.abort();
      await done;
    },
  };
}

async function until(check: () => boolean, ms = 3000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

describe("item 15: the inbox's event stream ends with the session and is not activity", () => {
  it("after sign-out the open stream closes without delivering the next event, and a new one is refused 401", async () => {
    const asesor = await createTestUser({ roles: ["asesor"] });
    const room = await roomWithToken();
    const stream = await openInboxStream(asesor.cookie);
    await send(room.roomId, room.token, "primer mensaje");
    // The guest's message and the agent's reply.
    expect(await until(() => stream.state.changed.length === 2)).toBe(true);
    const seen = stream.state.changed.length;

    const out = await settle(() =>
      signOutAction(routeArgs(clientForm("/auth/salir", {}, { cookie: asesor.cookie }))),
    );
    expect(out.status).toBe(302);
    await send(room.roomId, room.token, "segundo mensaje");
    expect(await until(() => stream.state.ended)).toBe(true);
    expect(stream.state.changed.length).toBe(seen);
    await stream.close();

    const again = await settle(() =>
      eventsLoader(
        routeArgs(
          requestAs(asesor.cookie, "/equipo/conversaciones/eventos", {
            headers: { accept: "text/event-stream" },
          }),
        ),
      ),
    );
    expect(again.status).toBe(401);
  });

  it("a stream whose session went idle for 30 minutes closes instead of delivering", async () => {
    const asesor = await createTestUser({ roles: ["asesor"] });
    const room = await roomWithToken();
    const stream = await openInboxStream(asesor.cookie);
    await idleFor(asesor.cookie, 31);
    await send(room.roomId, room.token, "hola");
    expect(await until(() => stream.state.ended)).toBe(true);
    expect(stream.state.changed).toEqual([]);
    await stream.close();
    expect(await sessionRow(asesor.cookie)).toBeUndefined();
  });

  it("the stream and the revalidations it triggers do not move the idle clock; a person's request does", async () => {
    const asesor = await createTestUser({ roles: ["asesor"] });
    await idleFor(asesor.cookie, 10);
    const idleSince = (await sessionRow(asesor.cookie))!.updatedAt.getTime();

    const stream = await openInboxStream(asesor.cookie);
    const automatic = await inbox(asesor.cookie, "?auto=1");
    expect(automatic.status).toBe(200);
    expect((await sessionRow(asesor.cookie))!.updatedAt.getTime()).toBe(idleSince);
    await stream.close();

    // The marker counts only on reads: a form post carrying it is still the person acting.
    const room = await roomWithToken();
    const note = await settle(() =>
      inboxAction(
        routeArgs(
          postAs(asesor.cookie, "/equipo/conversaciones?auto=1", {
            intent: "note",
            roomId: room.roomId,
            content: "Revisar mañana",
          }),
        ),
      ),
    );
    expect(note.status).toBe(200);
    expect((await sessionRow(asesor.cookie))!.updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});
