// npm run bench:outbox — WhatsApp messages per second delivered by one server's outbox worker to the fake provider
// (Infobip's contract, 10 ms latency per call) with 1,000 rows queued in the embedded database. Each row goes
// through the real path: claim with SKIP LOCKED, lease renewal, the client's HTTP call with messageId = the row id,
// the message recorded as accepted, the row marked sent. Checks at the end that each row was sent exactly once.
// BENCH_MESSAGES (1000) and BENCH_LATENCY_MS (10) change the load. `--json <file>` (or BENCH_JSON) writes the figures.
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { emitFigures, figure } from "./bench-json.mjs";
import { startBenchServer } from "./bench-server.mjs";

const total = Number(process.env.BENCH_MESSAGES ?? 1000);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 10);
const port = 3314;
const fakePort = 3315;
const apiKey = "bench-whatsapp-key";
const fakeUrl = `http://127.0.0.1:${fakePort}`;

// The fake provider, as `npm run dev` and the end-to-end tests run it (no delivery reports: only sends are timed).
const fake = spawn(process.execPath, ["tests/setup/run-whatsapp-fake.mjs"], {
  env: {
    ...process.env,
    WHATSAPP_FAKE_PORT: String(fakePort),
    WHATSAPP_API_KEY: apiKey,
    WHATSAPP_FAKE_LATENCY_MS: String(latencyMs),
  },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise((resolve, reject) => {
  let seen = "";
  fake.stdout.on("data", (chunk) => {
    seen += chunk;
    if (seen.includes("ready")) resolve();
  });
  fake.on("exit", (code) => reject(new Error(`the fake provider exited (${code})`)));
});

async function sent() {
  const answer = await fetch(`${fakeUrl}/__fake/sent`);
  return (await answer.json()).sent;
}

let server;
try {
  // 1. Boot once (migrations, demo data), stop, then queue the rows straight into the database.
  server = await startBenchServer({ port, keepData: true });
  const dataDir = server.dataDir;
  await server.stop();
  const db = await PGlite.create(path.join(dataDir, "pglite"), {
    extensions: { btree_gin, btree_gist, pg_trgm, unaccent },
  });
  await db.exec("begin");
  const ours = new Set();
  for (let index = 0; index < total; index++) {
    const id = randomUUID();
    ours.add(id);
    // Template messages: sent whatever the recipient's 24-hour window.
    await db.query(
      `insert into outbox (id, kind, idempotency_key, payload, next_attempt_at, ordering_key) values ($1, 'whatsapp', $2, $3, now() - interval '1 second', $4)`,
      [id, `bench:${id}`, JSON.stringify({ purpose: "test" }), `whatsapp:bench-${index}`],
    );
    await db.query(
      `insert into whatsapp_messages (id, purpose, to_phone, kind, template_name, template_placeholders)
       values ($1, 'test', $2, 'template', 'recordatorio_cita', $3)`,
      [id, `5691${String(index).padStart(7, "0")}`, JSON.stringify(["Paciente", "mañana", "10:00"])],
    );
  }
  await db.exec("commit");
  await db.close();

  // 2. Start the server sending to the fake; its outbox worker starts delivering at boot.
  const startedAt = performance.now();
  server = await startBenchServer({
    port,
    dataDir,
    env: { WHATSAPP_BASE_URL: fakeUrl, WHATSAPP_API_KEY: apiKey, WHATSAPP_SENDER: "56226543210" },
  });
  const bootedAt = performance.now();
  const deadline = Date.now() + 10 * 60_000;
  // Only the bench's own rows count: the demo data may queue a message of its own (a reminder) at boot.
  let messages = [];
  for (;;) {
    messages = (await sent()).filter((message) => ours.has(message.messageId));
    if (messages.length >= total) break;
    if (Date.now() > deadline)
      throw new Error(`only ${messages.length} of ${total} messages reached the fake in 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const finishedAt = performance.now();
  const cpuMs = server.cpuMs();
  await server.stop();
  server = undefined;

  const times = messages.map((message) => new Date(message.at).getTime()).toSorted((a, b) => a - b);
  const sendingSeconds = (times.at(-1) - times[0]) / 1000;
  const rate = (total - 1) / sendingSeconds;
  // The worker's first seconds share the one database connection with the start-up jobs (the maintenance pass):
  // the halves show how much of the window that was.
  const half = Math.floor(times.length / 2);
  const halfRate = (from, to) => (to - from) / ((times[to] - times[from]) / 1000);
  const halves = [halfRate(0, half), halfRate(half, times.length - 1)];
  const distinct = new Set(messages.map((message) => message.messageId)).size;
  // From the moment the rows are there for a running worker (the server is up: the rows were queued before it started)
  // to the provider's acceptance of each message.
  const bootedAtWall = Date.now() - (performance.now() - bootedAt);
  const waits = times.map((at) => Math.max(0, at - bootedAtWall)).toSorted((a, b) => a - b);
  const percentile = (p) => waits[Math.min(waits.length - 1, Math.ceil((p / 100) * waits.length) - 1)];

  const check = await PGlite.create(path.join(dataDir, "pglite"), {
    extensions: { btree_gin, btree_gist, pg_trgm, unaccent },
  });
  const rows = await check.query(
    // The bench's own rows only: the demo data has WhatsApp messages of its own.
    `select (select count(*)::int from outbox where idempotency_key like 'bench:%' and status = 'sent') as sent,
            (select count(*)::int from whatsapp_messages m join outbox o on o.id = m.id
              where o.idempotency_key like 'bench:%' and m.status = 'accepted') as accepted`,
  );
  await check.close();
  rmSync(dataDir, { recursive: true, force: true });
  const { sent: rowsSent, accepted } = rows.rows[0];

  console.log(
    `\nOutbox → WhatsApp fake (${latencyMs} ms per call), ${total} queued rows, one server instance`,
  );
  console.log(`  delivered:            ${messages.length} messages, ${distinct} distinct messageIds`);
  console.log(`  rows sent / accepted: ${rowsSent} / ${accepted}`);
  console.log(
    `  rate:                 ${rate.toFixed(1)} messages/s (first to last send, ${sendingSeconds.toFixed(1)} s)`,
  );
  console.log(`  by half:              ${halves.map((value) => value.toFixed(1)).join(" then ")} messages/s`);
  console.log(
    `  boot → all sent:      ${((finishedAt - bootedAt) / 1000).toFixed(1)} s (boot ${((bootedAt - startedAt) / 1000).toFixed(1)} s)`,
  );
  console.log(
    `  queued → accepted:    p50 ${Math.round(percentile(50))} ms, p99 ${Math.round(percentile(99))} ms (all queued before boot; the worker polls every 2 s)`,
  );
  console.log(`  server CPU:           ${(cpuMs / total).toFixed(2)} ms per message`);
  if (distinct !== total || messages.length !== total || rowsSent !== total || accepted !== total) {
    throw new Error("a message was sent twice or not recorded");
  }
  emitFigures(
    "outbox",
    [
      figure("whatsapp messages/s (1,000 queued, 10 ms provider)", Math.round(rate * 10) / 10, "msg/s", {
        min: 200,
      }),
      figure("server CPU per message", Math.round((cpuMs / total) * 100) / 100, "ms"),
      figure("queued → accepted p50", Math.round(percentile(50)), "ms"),
      figure("queued → accepted p99", Math.round(percentile(99)), "ms"),
    ],
    { total, latencyMs },
  );
} finally {
  if (server) await server.stop();
  fake.kill("SIGTERM");
}
