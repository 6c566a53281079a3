import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  insertGuest,
  insertGuestMessage,
  insertMessage,
  insertRoom,
  roomUpdatesAfter,
} from "~/features/chat/chat-repository.server";
import { postgresUrlFromEnv } from "../setup/postgres-database";

// A room's feed reads "messages after seq n". On PostgreSQL two inserts into one room could commit out of seq
// order: a feed that had already read the higher one would never see the lower one live. Each insert therefore
// locks the room's row before its seq is drawn; this test holds that lock from another connection, as an insert
// that has not committed yet, and checks the repository's insert waits and then gets the higher seq.

const postgresUrl = postgresUrlFromEnv();
if (!postgresUrl) {
  console.info(
    "chat-commit-order.test.ts skipped: no PostgreSQL in this project (it runs in the integration-postgres project)",
  );
}
const suite = postgresUrl ? describe : describe.skip;

afterAll(closeDb);

const settledWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

async function openRoom() {
  const guest = await insertGuest(await getDb(), {
    accountId: "clinica-chat",
    browserKeyHash: randomUUID(),
    firstName: "Orden",
    lastName: "Prueba",
  });
  const room = await insertRoom(await getDb(), {
    accountId: "clinica-chat",
    guestId: guest.id,
    agentId: "dentista-virtual",
    status: "open",
  });
  return { guest, room };
}

async function inFlightInsert(roomId: string) {
  // Another instance's insert, between drawing its seq and committing: it holds the room's row lock.
  const other = new pg.Client({ connectionString: postgresUrl });
  await other.connect();
  await other.query("begin");
  await other.query("select id from chat_rooms where id = $1 for update", [roomId]);
  return {
    async insertAndCommit() {
      const { rows } = await other.query<{ seq: string }>(
        "insert into chat_messages (id, room_id, author, kind, content) values ($1, $2, 'staff', 'message', 'primero') returning seq",
        [randomUUID(), roomId],
      );
      await other.query("commit");
      await other.end();
      return Number(rows[0]!.seq);
    },
  };
}

suite("chat messages commit in seq order within a room (PostgreSQL)", () => {
  for (const [label, send] of [
    [
      "a guest's message",
      async (room: { id: string; guestId: string }) =>
        insertGuestMessage(await getDb(), {
          guestId: room.guestId,
          accountId: "clinica-chat",
          roomId: room.id,
          id: randomUUID(),
          content: "segundo",
        }).then((result) => (result.kind === "stored" ? Number(result.row.seq) : Number.NaN)),
    ],
    [
      "an agent's or a person's message",
      async (room: { id: string }) =>
        insertMessage(await getDb(), {
          id: randomUUID(),
          roomId: room.id,
          author: "agent",
          content: "segundo",
        }).then(({ row }) => Number(row.seq)),
    ],
  ] as const) {
    it(`${label} waits for the room's in-flight insert and gets the higher seq`, async () => {
      const { room } = await openRoom();
      const other = await inFlightInsert(room.id);
      const sending = send(room);
      // While the other insert has not committed, ours must not complete (it would carry the lower seq).
      expect(await settledWithin(sending, 400)).toBe(false);
      const firstSeq = await other.insertAndCommit();
      const secondSeq = await sending;
      expect(secondSeq).toBeGreaterThan(firstSeq);
      // A feed that read up to the first sees the second next, and nothing is left behind.
      const { rows } = await roomUpdatesAfter(await getDb(), room.id, 0, { includeNotes: false, limit: 10 });
      expect(rows.map((row) => row.content)).toEqual(["primero", "segundo"]);
    });
  }
});
