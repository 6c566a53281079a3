import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { ensureListening } from "~/features/chat/chat-hub.server";
import { insertMessage, roomUpdatesAfter } from "~/features/chat/chat-repository.server";
import { createRoomFeeds, READ_LIMIT, type FeedReader } from "~/features/chat/chat-room-feed.server";
import { requestAs } from "../setup/clients";
import { callChatRoute } from "../setup/chat-api";

afterAll(closeDb);

const ACCOUNT = "clinica-chat";

async function post(path: string, body: unknown, cookie?: string) {
  const request = requestAs(cookie, `/api/chat/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return callChatRoute("POST", path, request);
}

async function newRoom() {
  const created = await post("guest", { account_id: ACCOUNT });
  const guest = (await created.json()) as { id: string };
  const cookie = created.headers.getSetCookie()[0]!.split(";")[0]!;
  const room = (await (
    await post("guest/room", { account_id: ACCOUNT, guest_id: guest.id, agent_id: "dentist-bot" }, cookie)
  ).json()) as { room_id: string };
  return room.room_id;
}

/** Stores a message straight in the log, as the API does (the insert NOTIFYs the room itself); returns its seq. */
async function store(roomId: string, content: string, kind: "message" | "note" = "message") {
  const { row } = await insertMessage(await getDb(), {
    id: randomUUID(),
    roomId,
    author: "staff",
    kind,
    content,
  });
  return row.seq;
}

/** The repository's reader, counting reads, able to hold the next read open or make it fail. */
function testReader() {
  let hold: Promise<void> | undefined;
  let failNext: Error | undefined;
  const counts = { messages: 0 };
  const reader: FeedReader = {
    async read(roomId, afterSeq, includeNotes) {
      counts.messages += 1;
      const gate = hold;
      hold = undefined;
      if (gate) await gate;
      if (failNext) {
        const error = failNext;
        failNext = undefined;
        throw error;
      }
      return roomUpdatesAfter(await getDb(), roomId, afterSeq, { includeNotes, limit: READ_LIMIT });
    },
  };
  return {
    reader,
    counts,
    /** The next read waits until the returned release is called. */
    holdNext() {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return release;
    },
    failNext(error: Error) {
      failNext = error;
    },
  };
}

function sink() {
  const state = { seqs: [] as number[], contents: [] as string[], statuses: [] as string[], closed: false };
  return {
    state,
    messages(rows: readonly { seq: number; content: string }[]) {
      for (const row of rows) {
        state.seqs.push(row.seq);
        state.contents.push(row.content);
      }
    },
    status(status: string) {
      state.statuses.push(status);
    },
    close() {
      state.closed = true;
    },
  };
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe("chat room feed (one read per room, pushed to every stream)", () => {
  // A NOTIFY sent before this process LISTENs is lost: the live part of each test starts once the LISTEN is in
  // place, not when a timer guesses it is (on PostgreSQL the LISTEN connection is opened at the first join).
  beforeAll(async () => {
    await ensureListening();
  });

  it("a resuming stream reads its own backlog, then joins the live feed with no gap and no duplicate", async () => {
    const roomId = await newRoom();
    const test = testReader();
    const feeds = createRoomFeeds(test.reader);
    const s1 = await store(roomId, "uno");
    const a = sink();
    const leaveA = feeds.join(roomId, 0, false, a);
    await until(() => a.state.seqs.length === 1, "A's backlog");
    await store(roomId, "dos");
    await store(roomId, "nota interna", "note");
    await until(() => a.state.contents.includes("dos"), "A live");

    // The feed's read is held open while two messages arrive; B resumes after "uno" meanwhile.
    const releaseFeed = test.holdNext();
    await store(roomId, "tres");
    await store(roomId, "cuatro");
    await settle();
    const b = sink();
    const leaveB = feeds.join(roomId, s1, false, b);
    await until(() => b.state.contents.includes("cuatro"), "B's backlog");
    releaseFeed();
    await until(() => a.state.contents.includes("cuatro"), "A gets the held read");

    // Now B's own backlog read is held while the feed pushes a new message: B buffers it, then drops the repeat.
    const c = sink();
    const releaseBacklog = test.holdNext();
    const leaveC = feeds.join(roomId, s1, false, c);
    await store(roomId, "cinco");
    await until(() => a.state.contents.includes("cinco") && b.state.contents.includes("cinco"), "live cinco");
    expect(c.state.seqs).toEqual([]);
    releaseBacklog();
    await until(() => c.state.contents.includes("cinco"), "C's backlog and buffer");

    // One read per wake for all the streams.
    const before = test.counts.messages;
    await store(roomId, "seis");
    await until(() => [a, b, c].every((s) => s.state.contents.includes("seis")), "seis everywhere");
    await settle();
    expect(test.counts.messages - before).toBe(1);

    expect(a.state.contents).toEqual(["uno", "dos", "tres", "cuatro", "cinco", "seis"]);
    expect(b.state.contents).toEqual(["dos", "tres", "cuatro", "cinco", "seis"]);
    expect(c.state.contents).toEqual(["dos", "tres", "cuatro", "cinco", "seis"]);
    for (const s of [a, b, c]) {
      expect(s.state.seqs).toEqual(s.state.seqs.toSorted((x, y) => x - y));
      expect(new Set(s.state.seqs).size).toBe(s.state.seqs.length);
      expect(s.state.statuses.length).toBeGreaterThan(0);
    }

    leaveA();
    leaveB();
    expect(feeds.size()).toBe(1);
    leaveC();
    expect(feeds.size()).toBe(0);
  });

  it("coalesces the wakes that arrive during a read into one follow-up read", async () => {
    const roomId = await newRoom();
    const test = testReader();
    const feeds = createRoomFeeds(test.reader);
    const a = sink();
    const leave = feeds.join(roomId, 0, false, a);
    await until(() => a.state.statuses.length === 1, "A joined");
    const release = test.holdNext();
    const before = test.counts.messages;
    await store(roomId, "m1");
    for (let index = 2; index <= 5; index++) await store(roomId, `m${index}`);
    await settle();
    release();
    await until(() => a.state.contents.length === 5, "five messages");
    await settle();
    expect(test.counts.messages - before).toBe(2);
    expect(a.state.contents).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    leave();
  });

  it("a failed read ends the room's streams instead of hanging them, and the next join starts afresh", async () => {
    const roomId = await newRoom();
    const test = testReader();
    const feeds = createRoomFeeds(test.reader);
    const a = sink();
    const b = sink();
    feeds.join(roomId, 0, false, a);
    await until(() => a.state.statuses.length === 1, "A joined");
    feeds.join(roomId, 0, false, b);
    await until(() => b.state.statuses.length === 1, "B joined");

    test.failNext(new Error("database went away"));
    const lost = await store(roomId, "perdido");
    await until(() => a.state.closed && b.state.closed, "both streams closed");
    expect(feeds.size()).toBe(0);

    // The clients reconnect from their Last-Event-ID (0 here): the message is there, once.
    const again = sink();
    const leave = feeds.join(roomId, 0, false, again);
    await until(() => again.state.seqs.includes(lost), "resumed");
    await store(roomId, "después");
    await until(() => again.state.contents.includes("después"), "live after the failure");
    expect(again.state.contents).toEqual(["perdido", "después"]);
    leave();
  });

  it("a failed backlog read ends only the stream that was catching up", async () => {
    const roomId = await newRoom();
    const test = testReader();
    const feeds = createRoomFeeds(test.reader);
    const a = sink();
    const leaveA = feeds.join(roomId, 0, false, a);
    await until(() => a.state.statuses.length === 1, "A joined");
    test.failNext(new Error("backlog read failed"));
    const b = sink();
    feeds.join(roomId, 0, false, b);
    await until(() => b.state.closed, "B closed");
    await store(roomId, "sigue");
    await until(() => a.state.contents.includes("sigue"), "A still live");
    expect(a.state.closed).toBe(false);
    leaveA();
    expect(feeds.size()).toBe(0);
  });
});
