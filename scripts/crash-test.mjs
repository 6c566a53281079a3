// Crash safety of lead capture on the embedded database: lead-form submissions go to the production server
// (`node server.mjs`, PGlite in a temporary DATA_DIR) while it is killed with SIGKILL at random moments, also while
// it boots, and restarted on the same files. A submission whose request died with the server is retried with the
// same submissionId (the server de-duplicates by it). At the end every acknowledged submission must be in `leads`
// exactly once, and every restart must have opened the database and become healthy.
//
//   node scripts/crash-test.mjs [--count 300] [--kills N] [--concurrency 4] [--keep]
//   (or CRASH_COUNT, CRASH_KILLS, CRASH_CONCURRENCY). Needs `npx react-router build` first.
import { spawn } from "node:child_process";
import { randomInt, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";

const SUCCESS_TEXT = "Recibimos tu solicitud";
const MAX_ATTEMPTS = 8;
const BOOT_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Share of restarts that are killed again before they become healthy (a crash during boot and migrations). */
const BOOT_KILL_RATE = 0.25;

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    count: { type: "string" },
    kills: { type: "string" },
    concurrency: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});

function positiveInt(value, fallback, name) {
  const number = Number(value ?? fallback);
  if (!Number.isInteger(number) || number < 1) {
    console.error(`${name} must be a positive integer (got ${value})`);
    process.exit(2);
  }
  return number;
}

const count = positiveInt(args.count ?? process.env.CRASH_COUNT, 300, "--count");
const plannedKills = positiveInt(
  args.kills ?? process.env.CRASH_KILLS,
  Math.max(3, Math.round(count / 25)),
  "--kills",
);
const concurrency = positiveInt(args.concurrency ?? process.env.CRASH_CONCURRENCY, 4, "--concurrency");

if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.error("build/ is missing: run `npx react-router build` first");
  process.exit(2);
}

const dataDir = mkdtempSync(path.join(tmpdir(), "clinica-crash-"));
const port = await freePort();
const serverEnv = {
  PATH: process.env.PATH ?? "",
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
  HOST: "127.0.0.1",
  PORT: String(port),
  DATA_DIR: dataDir,
  AUTH_SECRET: `crash-test-${randomUUID()}`,
};

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
}

function deferred() {
  let resolve;
  const promise = new Promise((done) => (resolve = done));
  return { promise, resolve };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------------
// The server: one child at a time, restarted on the same DATA_DIR.

const stats = {
  kills: 0,
  bootKills: 0,
  restarts: 0,
  healthyBoots: 0,
  failedBoots: 0,
  unexpectedExits: 0,
  bootMs: [],
};
const problems = [];
let current; // { child, exited, output(), killedOnPurpose }
let up = deferred(); // resolved while a healthy server is listening
let lastBootMs = 3_000;
let finished = false;
/** Set when a restart failed: the workers stop and the run reports the failure. */
let aborted = false;

function abort(problem) {
  problems.push(problem);
  aborted = true;
  up.resolve();
}

function spawnServer() {
  let output = "";
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: root,
    env: serverEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const server = {
    child,
    killedOnPurpose: false,
    serving: false,
    output: () => output,
    exited: new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal }))),
  };
  void server.exited.then(({ code, signal }) => {
    // A start that fails is reported by the boot loop; this is for a server that was serving.
    if (server.killedOnPurpose || finished || current !== server || !server.serving) return;
    // The server died on its own: that is a finding, and the workers still need a server.
    stats.unexpectedExits += 1;
    problems.push(`server exited on its own (code ${code}, signal ${signal}):\n${server.output()}`);
    up = deferred();
    void bootUntilHealthy({ restart: true });
  });
  return server;
}

async function healthy(server, deadline) {
  for (;;) {
    const exited = await Promise.race([server.exited, sleep(0).then(() => undefined)]);
    if (exited) return false;
    try {
      const response = await request("/healthz", { timeoutMs: 2_000 });
      if (response.status === 200) return true;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}

/**
 * Starts the server until one becomes healthy; some restarts are killed on purpose while they boot. A start that
 * fails on its own aborts the run.
 */
async function bootUntilHealthy({ restart }) {
  for (;;) {
    if (restart) stats.restarts += 1;
    const started = Date.now();
    const server = spawnServer();
    current = server;
    let bootKill;
    if (restart && Math.random() < BOOT_KILL_RATE) {
      bootKill = setTimeout(
        () => {
          server.killedOnPurpose = true;
          stats.kills += 1;
          stats.bootKills += 1;
          server.child.kill("SIGKILL");
        },
        randomInt(0, lastBootMs + 1),
      );
    }
    const ok = await healthy(server, started + BOOT_TIMEOUT_MS);
    clearTimeout(bootKill);
    if (ok && !server.killedOnPurpose) {
      server.serving = true;
      lastBootMs = Date.now() - started;
      stats.bootMs.push(lastBootMs);
      stats.healthyBoots += 1;
      up.resolve();
      return;
    }
    if (server.killedOnPurpose) {
      await server.exited;
      log(`kill #${stats.kills} (while booting, after ${Date.now() - started} ms); restarting`);
      restart = true;
      continue;
    }
    stats.failedBoots += 1;
    server.killedOnPurpose = true;
    server.child.kill("SIGKILL");
    const { code, signal } = await server.exited;
    abort(
      `the server did not become healthy on the same DATA_DIR (exit ${code ?? signal ?? "timeout"}):\n${server.output()}`,
    );
    return;
  }
}

async function killAndRestart(reason) {
  const server = current;
  up = deferred();
  server.killedOnPurpose = true;
  stats.kills += 1;
  server.child.kill("SIGKILL");
  await server.exited;
  log(`kill #${stats.kills} (${reason}); restarting`);
  await bootUntilHealthy({ restart: true });
  if (!aborted) log(`  healthy again after ${lastBootMs} ms`);
}

// ---------------------------------------------------------------------------------------------------------------
// The submissions.

const phonePrefix = String(randomInt(10, 100));
const submissions = Array.from({ length: count }, (_, index) => ({
  index,
  submissionId: randomUUID(),
  phone: `+569${phonePrefix}${String(index).padStart(6, "0")}`,
  // One client address per submission, so a per-IP limit on the form never interferes.
  from: `127.${20 + Math.floor(index / 62_500)}.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`,
  attempts: 0,
  acknowledged: false,
  statuses: [],
}));

function request(pathname, { method = "GET", body, from, timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const headers = body
      ? {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(Buffer.byteLength(body)),
        }
      : {};
    const outgoing = http.request(
      { host: "127.0.0.1", port, path: pathname, method, headers, agent: false, localAddress: from },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error("timeout")));
    outgoing.on("error", reject);
    if (body) outgoing.write(body);
    outgoing.end();
  });
}

function formBody(item) {
  return new URLSearchParams({
    submissionId: item.submissionId,
    name: `Prueba Caída ${item.index}`,
    phone: item.phone,
    treatment: "implantes",
    urgency: "1-mes",
    budget: "medio",
    consent: "on",
  }).toString();
}

let started = 0;
let inFlight = 0;
const killPoints = Array.from({ length: Math.min(plannedKills, count) }, () => randomInt(0, count)).toSorted(
  (a, b) => a - b,
);
let killing = Promise.resolve();

async function submit(item) {
  const body = formBody(item);
  while (item.attempts < MAX_ATTEMPTS) {
    await up.promise;
    if (aborted) return;
    item.attempts += 1;
    inFlight += 1;
    try {
      const response = await request("/?index", { method: "POST", body, from: item.from });
      item.statuses.push(response.status);
      if (response.status === 200 && response.body.includes(SUCCESS_TEXT)) {
        item.acknowledged = true;
        return;
      }
      // A refusal (400, 413, 429) will not change on a retry; anything else (5xx) might.
      if (response.status >= 400 && response.status < 500) return;
      await sleep(100);
    } catch (error) {
      // The server died under the request: wait for the next one and send the same submission again.
      item.statuses.push(error.code ?? error.message);
      await sleep(20);
    } finally {
      inFlight -= 1;
    }
  }
}

async function worker() {
  for (;;) {
    const item = submissions[started];
    if (!item || aborted) return;
    started += 1;
    while (killPoints.length > 0 && killPoints[0] <= started) {
      killPoints.shift();
      const at = started;
      // A few milliseconds later, so that the kill lands while requests are being handled.
      killing = killing.then(async () => {
        await up.promise;
        if (aborted) return;
        await sleep(randomInt(0, 40));
        await killAndRestart(`at submission ${at}/${count}, ${inFlight} in flight`);
      });
    }
    await submit(item);
  }
}

function log(message) {
  console.log(message);
}

// ---------------------------------------------------------------------------------------------------------------
// The run.

let exitCode = 0;
const runStarted = Date.now();
try {
  log(`crash test: ${count} submissions, ${killPoints.length} kills planned, concurrency ${concurrency}`);
  log(`DATA_DIR ${dataDir}, port ${port}`);
  await bootUntilHealthy({ restart: false });
  if (aborted) throw new Error("the first boot failed");
  log(`first boot (fresh database) healthy after ${lastBootMs} ms`);

  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  await killing;
  if (aborted) throw new Error("a restart failed");

  // One last crash with nothing in flight, then a clean reopen and a graceful stop, before reading the files.
  await killAndRestart("after the last submission");
  if (aborted) throw new Error("the last restart failed");
  finished = true;
  current.child.kill("SIGTERM");
  const { code, signal } = await current.exited;
  if (code !== 0)
    problems.push(`SIGTERM did not stop the server cleanly (exit ${code ?? signal}):\n${current.output()}`);

  const db = await PGlite.create(path.join(dataDir, "pglite"), {
    extensions: { btree_gin, btree_gist, pg_trgm, unaccent },
  });
  let rows;
  try {
    rows = (await db.query("select submission_id::text as submission_id, phone from leads")).rows;
  } finally {
    await db.close();
  }

  const bySubmission = new Map();
  const byPhone = new Map();
  for (const row of rows) {
    bySubmission.set(row.submission_id, (bySubmission.get(row.submission_id) ?? 0) + 1);
    byPhone.set(row.phone, (byPhone.get(row.phone) ?? 0) + 1);
  }
  const ours = new Set(submissions.map((item) => item.submissionId));
  const acknowledged = submissions.filter((item) => item.acknowledged);
  const missing = acknowledged.filter((item) => !bySubmission.has(item.submissionId));
  const duplicates =
    [...bySubmission.values()].filter((n) => n > 1).length +
    [...byPhone.values()].filter((n) => n > 1).length;
  const foundInDb = submissions.filter((item) => bySubmission.has(item.submissionId)).length;
  const unacknowledgedStored = submissions.filter(
    (item) => !item.acknowledged && bySubmission.has(item.submissionId),
  ).length;
  const strangers = rows.filter((row) => !ours.has(row.submission_id)).length;
  const retried = submissions.filter((item) => item.attempts > 1).length;
  const refused = submissions.filter((item) => !item.acknowledged);

  if (missing.length > 0) problems.push(`${missing.length} acknowledged submissions are not in the database`);
  if (duplicates > 0) problems.push(`${duplicates} submissions are stored more than once`);
  if (strangers > 0) problems.push(`${strangers} leads in the database that this run never sent`);
  if (stats.failedBoots > 0) problems.push(`${stats.failedBoots} restarts did not open the database`);
  if (refused.length > 0) {
    const sample = refused
      .slice(0, 5)
      .map((item) => `${item.submissionId}: ${item.statuses.join(",")}`)
      .join("; ");
    log(`warning: ${refused.length} submissions were never acknowledged (${sample})`);
  }

  const bootMs = stats.bootMs.toSorted((a, b) => a - b);
  const summary = {
    submissions: count,
    acknowledged: acknowledged.length,
    notAcknowledged: refused.length,
    retried,
    kills: stats.kills,
    killsDuringBoot: stats.bootKills,
    restarts: stats.restarts,
    healthyRestarts: stats.healthyBoots - 1,
    failedReopens: stats.failedBoots,
    unexpectedExits: stats.unexpectedExits,
    foundInDb,
    storedButNotAcknowledged: unacknowledgedStored,
    duplicates,
    missing: missing.length,
    bootMsMedian: bootMs[Math.floor(bootMs.length / 2)],
    bootMsMax: bootMs.at(-1),
    seconds: Math.round((Date.now() - runStarted) / 100) / 10,
  };
  log("\nsummary");
  console.table(summary);
} catch (error) {
  problems.push(error instanceof Error ? error.message : String(error));
} finally {
  finished = true;
  current?.child.kill("SIGKILL");
}

if (problems.length > 0 || stats.unexpectedExits > 0) {
  exitCode = 1;
  console.error(`\nFAIL\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
  console.error(`DATA_DIR kept for inspection: ${dataDir}`);
} else {
  log("\nPASS: every acknowledged submission is stored exactly once and every restart reopened the database");
  if (!args.keep) rmSync(dataDir, { recursive: true, force: true });
  else log(`DATA_DIR kept: ${dataDir}`);
}
process.exit(exitCode);
