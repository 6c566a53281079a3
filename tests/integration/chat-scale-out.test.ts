import { existsSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, postgresUrlFromEnv, type ScratchDatabase } from "../setup/postgres-database";
import { projectRoot, startProdServer, type ProdServer } from "../setup/prod-server";

// DESIGN decision 17: with several instances on PostgreSQL, a message posted on one reaches a client of another
// through LISTEN/NOTIFY (no Redis, no sticky sessions).

const postgresUrl = postgresUrlFromEnv();
if (!postgresUrl) {
  console.info(
    "chat-scale-out.test.ts skipped: no PostgreSQL in this project (it runs in the integration-postgres project, which needs TEST_DATABASE_URL)",
  );
}

const suite = postgresUrl ? describe : describe.skip;
let database: ScratchDatabase;
let serverA: ProdServer;
let serverB: ProdServer;

const url = (server: ProdServer, pathname: string) => `http://127.0.0.1:${server.port}/api/chat/${pathname}`;

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

suite(
  postgresUrl
    ? "chat fan-out across two production servers on one PostgreSQL"
    : "chat fan-out across instances (skipped: no PostgreSQL — runs in the integration-postgres project)",
  () => {
    beforeAll(async () => {
      if (!existsSync(path.join(projectRoot, "build/server/index.js")))
        throw new Error("run `npx react-router build` first");
      database = await createScratchDatabase(postgresUrl!, "clinica_chat_scale");
      serverA = await startProdServer({ DATABASE_URL: database.url });
      serverB = await startProdServer({ DATABASE_URL: database.url });
    }, 240_000);

    afterAll(async () => {
      await Promise.allSettled([serverA?.stop(), serverB?.stop()]);
      await database?.drop();
    });

    it("a message posted on A reaches an SSE client connected to B", async () => {
      const headers = { "content-type": "application/json" };
      const created = await fetch(url(serverA, "guest"), {
        method: "POST",
        headers,
        body: JSON.stringify({ account_id: "clinica-chat" }),
      });
      const cookie = created.headers.getSetCookie()[0]!.split(";")[0]!;
      const guest = await json<{ id: string }>(created);
      const room = await json<{ room_id: string }>(
        await fetch(url(serverA, "guest/room"), {
          method: "POST",
          headers: { ...headers, cookie },
          body: JSON.stringify({ account_id: "clinica-chat", guest_id: guest.id, agent_id: "dentist-bot" }),
        }),
      );
      const tokens = await json<{ access_token: string }>(
        await fetch(url(serverA, `guest/login?guest_id=${guest.id}&account_id=clinica-chat`), {
          method: "POST",
          headers: { cookie },
        }),
      );
      const auth = { authorization: `Bearer ${tokens.access_token}` };

      const stream = await fetch(url(serverB, `rooms/${room.room_id}/events`), { headers: auth });
      expect(stream.status).toBe(200);
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let received = "";
      const arrived = (async () => {
        while (!received.includes("desde la instancia A")) {
          const { value, done } = await reader.read();
          if (done) break;
          received += value;
        }
      })();
      // The stream on B is open (its first event arrived) before A posts.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await json(
        await fetch(url(serverA, `rooms/${room.room_id}/handoff`), {
          method: "POST",
          headers: { ...headers, ...auth },
          body: "{}",
        }),
      );
      const posted = await fetch(url(serverA, `rooms/${room.room_id}/messages`), {
        method: "POST",
        headers: { ...headers, ...auth },
        body: JSON.stringify({ id: randomUUID(), content: "Hola desde la instancia A" }),
      });
      expect(posted.status).toBe(201);
      await Promise.race([
        arrived,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error(`not received on B: ${received}`)), 5000),
        ),
      ]);
      expect(received).toContain("Hola desde la instancia A");
      await reader.cancel();
    });
  },
);
