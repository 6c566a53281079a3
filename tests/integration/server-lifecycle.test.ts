import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, databaseStatus, DatabaseClosedError, getDb } from "~/db/client.server";
import { uniquePhone } from "../setup/clients";
import {
  freePort,
  projectRoot,
  runProdServerUntilExit,
  startProdServer,
  TEST_AUTH_SECRET,
} from "../setup/prod-server";

// The production server (server.mjs + build/) on the embedded database: boot checks, demo mode, SIGTERM, reopen.

const dataDirs: string[] = [];
// Each boot on a fresh data directory runs initdb and the migrations: seconds on an idle machine, far more on a
// busy CI runner.
const BOOT_TEST_MS = 180_000;

function freshDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "clinica-lifecycle-"));
  dataDirs.push(dir);
  return dir;
}

/** Queries the server's files directly, once it has exited. */
async function queryDataDir<T>(dataDir: string, query: string, params: unknown[] = []): Promise<T[]> {
  const db = await PGlite.create(path.join(dataDir, "pglite"), {
    extensions: { btree_gin, btree_gist, pg_trgm, unaccent },
  });
  try {
    return (await db.query<T>(query, params)).rows;
  } finally {
    await db.close();
  }
}

function leadForm(phone: string): URLSearchParams {
  return new URLSearchParams({
    submissionId: randomUUID(),
    name: "Persistente",
    phone,
    treatment: "implantes",
    urgency: "inmediato",
    budget: "alto",
    consent: "on",
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the error code of a fresh TCP connection attempt, or "connected" if the server accepted it. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** A POST whose body the test sends piece by piece (chunked transfer encoding) on a keep-alive connection. */
function slowPost(port: number, pathname: string) {
  const agent = new http.Agent({ keepAlive: true });
  let resolveResponse: (value: { status: number; body: string; connection?: string }) => void;
  let rejectResponse: (error: Error) => void;
  const response = new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    resolveResponse = resolve;
    rejectResponse = reject;
  });
  const request = http.request(
    {
      host: "127.0.0.1",
      port,
      path: pathname,
      method: "POST",
      agent,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    },
    (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", rejectResponse);
      res.on("end", () =>
        resolveResponse({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          connection: res.headers.connection,
        }),
      );
    },
  );
  const socketClosed = new Promise<number>((resolve) =>
    request.on("socket", (socket) => socket.once("close", () => resolve(Date.now()))),
  );
  // Awaited by the test only when it gets that far; a failed assertion before must not leave it unhandled.
  response.catch(() => undefined);
  request.on("error", (error) => rejectResponse(error));
  request.on("close", () => rejectResponse(new Error("connection closed without a complete response")));
  return {
    write: (chunk: string) => new Promise<void>((resolve) => request.write(chunk, () => resolve())),
    end: () => request.end(),
    response,
    /** When the connection closed: the agent keeps it open, so only the server (or its idle timeout) closes it. */
    socketClosed,
    destroy: () => agent.destroy(),
  };
}

describe("the database handle", () => {
  it(
    "stays closed after closeDb(): getDb() rejects instead of opening a second handle",
    async () => {
      await getDb();
      await closeDb();
      await expect(getDb()).rejects.toBeInstanceOf(DatabaseClosedError);
      await expect(getDb()).rejects.toThrow(/closed/);
      expect(await databaseStatus()).toEqual({ ok: false });
      await closeDb();
    },
    BOOT_TEST_MS,
  );
});

describe.skipIf(Boolean(process.env.DATABASE_URL))("production server lifecycle", () => {
  beforeAll(() => {
    if (!existsSync(path.join(projectRoot, "build/server/index.js")))
      throw new Error("run `npm run build` first");
  });
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to boot with bad variables, naming each one", async () => {
    const result = await runProdServerUntilExit({
      PORT: "not-a-port",
      CLINIC_PHONE: "123",
      DATA_DIR: freshDataDir(),
      AUTH_SECRET: TEST_AUTH_SECRET,
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain("PORT");
    expect(result.output).toContain("CLINIC_PHONE");
  });

  it("refuses to boot when a WhatsApp send could outlast the outbox lease, naming WHATSAPP_TIMEOUT_MS", async () => {
    const result = await runProdServerUntilExit({
      DATA_DIR: freshDataDir(),
      AUTH_SECRET: TEST_AUTH_SECRET,
      WHATSAPP_TIMEOUT_MS: "20000",
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain("WHATSAPP_TIMEOUT_MS");
    expect(result.output).toContain("plazo del outbox");
    expect(result.output).not.toContain("listening on");
  });

  it("refuses to boot outside demo mode without AUTH_SECRET, naming it", async () => {
    const result = await runProdServerUntilExit({ DATA_DIR: freshDataDir(), AUTH_SECRET: "" });
    expect(result.code).toBe(1);
    expect(result.output).toContain("AUTH_SECRET");
    expect(result.output).not.toContain("listening on");
  });

  it(
    "refuses demo mode with an https PUBLIC_BASE_URL unless ALLOW_DEMO_IN_PRODUCTION=1",
    async () => {
      const dataDir = freshDataDir();
      const refused = await runProdServerUntilExit({
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        SEED_DEMO: "1",
        PUBLIC_BASE_URL: "https://clinica.example",
      });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain("SEED_DEMO");
      expect(refused.output).not.toContain("listening on");

      const allowed = await startProdServer({
        DATA_DIR: dataDir,
        SEED_DEMO: "1",
        PUBLIC_BASE_URL: "https://clinica.example",
        ALLOW_DEMO_IN_PRODUCTION: "1",
        AUTH_SECRET: "",
      });
      await allowed.stop();
      expect(await allowed.exited).toBe(0);
    },
    BOOT_TEST_MS,
  );

  it(
    "without SEED_DEMO has the reference data and no demo accounts",
    async () => {
      const dataDir = freshDataDir();
      const server = await startProdServer({ DATA_DIR: dataDir });
      await server.stop();
      expect(await server.exited).toBe(0);

      const [demo] = await queryDataDir<{ count: number }>(
        dataDir,
        "select count(*)::int as count from users where email like '%@clinica.example'",
      );
      const [treatments] = await queryDataDir<{ count: number }>(
        dataDir,
        "select count(*)::int as count from treatments",
      );
      expect(demo!.count).toBe(0);
      expect(treatments!.count).toBeGreaterThan(0);
    },
    BOOT_TEST_MS,
  );

  it(
    "with SEED_DEMO=1 over plain http boots with the demo accounts, serves, shuts down on SIGTERM and keeps the data",
    async () => {
      const dataDir = freshDataDir();
      const env = { DATA_DIR: dataDir, SEED_DEMO: "1", AUTH_SECRET: "" };
      const first = await startProdServer(env);
      const health = (await (await fetch(`http://127.0.0.1:${first.port}/healthz`)).json()) as unknown;
      expect(health).toMatchObject({ status: "ok", database: { ok: true, kind: "pglite" } });

      const phone = uniquePhone();
      const response = await fetch(`http://127.0.0.1:${first.port}/?index`, {
        method: "POST",
        body: leadForm(phone),
        redirect: "manual",
      });
      expect(response.status).toBe(200);

      await first.stop();
      expect(await first.exited).toBe(0);

      // The files open cleanly after the shutdown and hold the lead, the demo seed and the demo accounts.
      const leads = await queryDataDir<{ phone: string }>(
        dataDir,
        "select phone from leads where phone = $1",
        [phone],
      );
      const [seeded] = await queryDataDir<{ count: number }>(
        dataDir,
        "select count(*)::int as count from leads",
      );
      const [demo] = await queryDataDir<{ count: number }>(
        dataDir,
        "select count(*)::int as count from users where email like '%@clinica.example'",
      );
      expect(leads).toHaveLength(1);
      expect(seeded!.count).toBeGreaterThanOrEqual(4);
      expect(demo!.count).toBeGreaterThanOrEqual(4);

      const second = await startProdServer(env);
      await second.stop();
      expect(await second.exited).toBe(0);
    },
    BOOT_TEST_MS,
  );

  it(
    "on SIGTERM refuses new connections, lets a slow request in flight finish, then exits 0 without waiting for keep-alive",
    async () => {
      const dataDir = freshDataDir();
      const server = await startProdServer({ DATA_DIR: dataDir });
      const phone = uniquePhone();
      const body = leadForm(phone).toString();
      const pieces = [body.slice(0, 40), body.slice(40, 90), body.slice(90)];

      const post = slowPost(server.port, "/?index");
      try {
        await post.write(pieces[0]!);
        // Let the server start the action on the partial body before the signal arrives.
        await sleep(300);
        server.child.kill("SIGTERM");
        await sleep(500);

        expect(server.child.exitCode).toBeNull();
        expect(await tryConnect(server.port)).toBe("ECONNREFUSED");

        await post.write(pieces[1]!);
        await sleep(300);
        await post.write(pieces[2]!);
        post.end();

        const answer = await post.response;
        const answeredAt = Date.now();
        expect(answer.status).toBe(200);
        expect(answer.body).toContain("Recibimos tu solicitud");
        expect(answer.connection).toBe("close");

        // Closed right after the answer, not after Node's 5 s keep-alive timeout.
        expect((await post.socketClosed) - answeredAt).toBeLessThan(4_000);
        expect(await server.exited).toBe(0);
      } finally {
        post.destroy();
        await server.stop();
      }

      const stored = await queryDataDir<{ count: number }>(
        dataDir,
        "select count(*)::int as count from leads where phone = $1",
        [phone],
      );
      expect(stored[0]!.count).toBe(1);
    },
    BOOT_TEST_MS,
  );
});
