import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The production server (server.mjs + build/) on the embedded database: boot, serve, SIGTERM, reopen.
const root = path.resolve(import.meta.dirname, "../..");
const nodeBinary = process.execPath;
const dataDir = mkdtempSync(path.join(tmpdir(), "clinica-lifecycle-"));

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  let output = "";
  const child = spawn(nodeBinary, ["server.mjs"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(port: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok)
        return (await response.json()) as { status: string; database: { ok: boolean; kind: string } };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("server did not become healthy");
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("production server lifecycle", () => {
  beforeAll(() => {
    if (!existsSync(path.join(root, "build/server/index.js"))) throw new Error("run `npm run build` first");
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("refuses to boot with bad variables, naming each one", async () => {
    const server = start({ PORT: "not-a-port", CLINIC_PHONE: "123", DATA_DIR: dataDir });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("PORT");
    expect(server.output()).toContain("CLINIC_PHONE");
  });

  it("serves, shuts down cleanly on SIGTERM and keeps the data", async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const env = { PORT: String(port), DATA_DIR: dataDir, HOST: "127.0.0.1" };
    const first = start(env);
    const health = await waitForHealth(port);
    expect(health).toMatchObject({ status: "ok", database: { ok: true, kind: "pglite" } });

    const phone = `+569${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const response = await fetch(`http://127.0.0.1:${port}/?index`, {
      method: "POST",
      body: new URLSearchParams({
        submissionId: randomUUID(),
        name: "Persistente",
        phone,
        treatment: "implantes",
        urgency: "inmediato",
        budget: "alto",
        consent: "on",
      }),
      redirect: "manual",
    });
    expect(response.status).toBe(200);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    // The files open cleanly after the shutdown and hold the lead and the demo seed.
    const db = await PGlite.create(path.join(dataDir, "pglite"));
    const leads = await db.query<{ phone: string }>("select phone from leads where phone = $1", [phone]);
    const seeded = await db.query<{ count: number }>("select count(*)::int as count from leads");
    await db.close();
    expect(leads.rows).toHaveLength(1);
    expect(seeded.rows[0]!.count).toBeGreaterThanOrEqual(4);

    const second = start(env);
    await waitForHealth(port);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 60_000);
});
