// Crash safety of Webpay payments (ADR 036) on the embedded database: a patient books treatments that ask for a
// deposit on the production server (`node server.mjs`, PGlite in a temporary DATA_DIR, demo data), pays on the
// standalone Webpay fake (tests/setup/run-webpay-fake.mjs) and comes back to /pagos/webpay/retorno, as a browser
// does, while the server is killed with SIGKILL in the two windows where money can be lost or taken twice, and
// restarted on the same files:
//   (a) between the payer's return and our commit: the commit is held on its way in (the fake's `delayMs`) and the
//       server dies while it waits; Webpay still applies it (the caller is gone, the request was not);
//   (b) between Webpay's commit and our write: the commit is applied and its answer held (`delayAfterApplyMs`); the
//       server dies once the fake shows the transaction AUTHORIZED.
// Also random kills (during a booking, a few milliseconds after a return; some restarts are killed while booting),
// approved, rejected, aborted and timed-out payments, a return posted twice, and attempts the payer never returned
// from. Then the reconciliation (every PAYMENT_RECONCILIATION_MS, shortened here; a commit claim lapses after
// COMMIT_CLAIM_SECONDS) must settle what it can; the server is stopped and the database is checked against the
// fake: every transaction Webpay holds as AUTHORIZED is one payment 'authorized' whose deposit is 'paid' (or one we
// refunded, with its payment_refunds row), no charge is credited twice, every confirmed booking has its deposit,
// nothing unpaid is confirmed, and nothing is left pending past its deadlines.
//
//   node scripts/crash-test-payments.mjs [--windows 2] [--random 2] [--port N] [--fake-port N] [--keep]
//   (or CRASH_PAY_WINDOWS, CRASH_PAY_RANDOM, CRASH_PAY_PORT, CRASH_PAY_FAKE_PORT). Needs `npx react-router build`.
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

// The domain's own rules (Node's type stripping; the hook resolves their extensionless imports), so the checks
// below never restate a deadline.
await import("../tests/setup/fake-runner.mjs");
const { COMMIT_CLAIM_SECONDS, holdReleaseDecision, reconciliationStep } =
  await import("../app/domain/payments.ts");
const { clinicDate } = await import("../app/domain/clinic-time.ts");
const { DEFAULT_WEEK, openDays } = await import("../app/domain/slots.ts");

/** The demo patient and admin (app/startup/demo-accounts.server.ts); implants ask a 20 % deposit in demo mode. */
const DEMO_PASSWORD = "clinica-demo-2026";
const PATIENT_EMAIL = "paciente@clinica.example";
const ADMIN_EMAIL = "admin@clinica.example";
const TREATMENT = "implantes";
const NOTE_PREFIX = "crash-pay";
const COMMERCE_CODE = "597055555532";
const API_KEY = `fake-webpay-key-crash-${randomUUID()}`;
/** How long the fake holds a commit (before or after applying it): the window the server is killed in. */
const HELD_COMMIT_MS = 3_000;
const RECONCILIATION_MS = 5_000;
/** A booking killed between Webpay's token and our write leaves an attempt without one: expired after this. */
const NO_TOKEN_EXPIRY_MS = 2 * 60_000;
/** How long after its deadline a step may still be waiting for the job (two runs and some slack). */
const JOB_SLACK_MS = 2 * RECONCILIATION_MS + 10_000;
const BOOT_TIMEOUT_MS = 120_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Share of restarts that are killed again before they become healthy. */
const BOOT_KILL_RATE = 0.2;

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    windows: { type: "string" },
    random: { type: "string" },
    port: { type: "string" },
    "fake-port": { type: "string" },
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

const windowsEach = positiveInt(args.windows ?? process.env.CRASH_PAY_WINDOWS, 2, "--windows");
const randomKills = positiveInt(args.random ?? process.env.CRASH_PAY_RANDOM, 2, "--random");

if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.error("build/ is missing: run `npx react-router build` first");
  process.exit(2);
}

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

const port = positiveInt(args.port ?? process.env.CRASH_PAY_PORT, await freePort(), "--port");
const fakePort = positiveInt(
  args["fake-port"] ?? process.env.CRASH_PAY_FAKE_PORT,
  await freePort(),
  "--fake-port",
);
const base = `http://127.0.0.1:${port}`;
const fakeUrl = `http://127.0.0.1:${fakePort}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "clinica-crash-pay-"));
const serverEnv = {
  PATH: process.env.PATH ?? "",
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
  HOST: "127.0.0.1",
  PORT: String(port),
  PUBLIC_BASE_URL: base,
  DATA_DIR: dataDir,
  AUTH_SECRET: `crash-test-${randomUUID()}`,
  SEED_DEMO: "1",
  DENTALINK_MOCK_DELAYS: "0",
  // One patient books every case; the online cap is not what is tested here.
  MAX_UPCOMING_APPOINTMENTS: "100",
  TRANSBANK_COMMERCE_CODE: COMMERCE_CODE,
  TRANSBANK_API_KEY: API_KEY,
  TRANSBANK_ENVIRONMENT: fakeUrl,
  PAYMENT_RECONCILIATION_MS: String(RECONCILIATION_MS),
};

function deferred() {
  let resolve;
  const promise = new Promise((done) => (resolve = done));
  return { promise, resolve };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function log(message) {
  console.log(message);
}

// ---------------------------------------------------------------------------------------------------------------
// The Webpay fake: one process for the whole run (it is Transbank: it never crashes with us).

let fake;

async function startFake() {
  const child = spawn(process.execPath, ["tests/setup/run-webpay-fake.mjs"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      WEBPAY_FAKE_PORT: String(fakePort),
      TRANSBANK_COMMERCE_CODE: COMMERCE_CODE,
      TRANSBANK_API_KEY: API_KEY,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise((resolve, reject) => {
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-4000);
      if (output.includes("fake webpay ready")) resolve();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("exit", (code) => reject(new Error(`the Webpay fake exited (${code}):\n${output}`)));
  });
  fake = { child, output: () => output };
  await ready;
}

async function fakeCall(pathname, body) {
  const response = await fetch(`${fakeUrl}${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`fake ${pathname}: ${response.status} ${text}`);
  return JSON.parse(text);
}

const fakeState = () => fakeCall("/__fake/state");

async function fakeTransaction(token) {
  return (await fakeState()).transactions.find((transaction) => transaction.token === token);
}

/** Polls the fake until `check(state)` answers something truthy, every few milliseconds. */
async function untilFake(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check(await fakeState());
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`the fake never showed ${what}`);
    await sleep(15);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The server: one child at a time, restarted on the same DATA_DIR (as scripts/crash-test.mjs).

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
let current;
let up = deferred();
let lastBootMs = 3_000;
let finished = false;
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
  const keep = (chunk) => (output = (output + chunk.toString()).slice(-6000));
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
    if (server.killedOnPurpose || finished || current !== server || !server.serving) return;
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
      log(`  kill #${stats.kills} (while booting, after ${Date.now() - started} ms); restarting`);
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

let lastKillAt = 0;

async function killAndRestart(reason) {
  const server = current;
  up = deferred();
  server.killedOnPurpose = true;
  stats.kills += 1;
  server.child.kill("SIGKILL");
  lastKillAt = Date.now();
  await server.exited;
  log(`  kill #${stats.kills} (${reason}); restarting`);
  await bootUntilHealthy({ restart: true });
  if (aborted) throw new Error("a restart failed");
  log(`  healthy again after ${lastBootMs} ms`);
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP as a browser: cookies by hand, forms url-encoded, redirects not followed.

function request(pathname, { method = "GET", form, cookie, timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const headers = { origin: base, ...(cookie ? { cookie } : {}) };
    if (body !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    const outgoing = http.request(
      { host: "127.0.0.1", port, path: pathname, method, headers, agent: false },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error("timeout")));
    outgoing.on("error", reject);
    if (body !== undefined) outgoing.write(body);
    outgoing.end();
  });
}

async function signIn(email) {
  const response = await request("/auth", {
    method: "POST",
    form: { intent: "signin", email, password: DEMO_PASSWORD },
  });
  const cookie = [response.headers["set-cookie"] ?? []]
    .flat()
    .map((value) => value.split(";")[0])
    .join("; ");
  if (response.status !== 302 || !cookie) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  return cookie;
}

let patientCookie = "";
let adminCookie = "";

/** Open days after today (the clinic's), so no slot is too close to book. */
const bookingDays = openDays(clinicDate(new Date()), 21, DEFAULT_WEEK).slice(2);

/** A free implant slot on one of the open days after `offset` (each case starts on its own day). */
async function freeSlot(offset) {
  for (let step = 0; step < bookingDays.length; step += 1) {
    const date = bookingDays[(offset + step) % bookingDays.length];
    const response = await request(
      `/paciente/citas/horarios?tratamiento=${TREATMENT}&dentista=any&fecha=${date}`,
      { cookie: patientCookie },
    );
    if (response.status !== 200) throw new Error(`slots of ${date}: ${response.status} ${response.body}`);
    const slots = JSON.parse(response.body).data?.slots ?? [];
    if (slots.length > 0) return { date, time: slots[randomInt(0, slots.length)].time };
  }
  throw new Error("no free implant slot in three weeks");
}

function bookingForm(item) {
  return {
    intent: "book",
    treatment: TREATMENT,
    dentist: "any",
    date: item.slot.date,
    time: item.slot.time,
    notes: item.note,
  };
}

/**
 * Books with a deposit: the action redirects to the checkout of the new attempt. A 409 (the demo patient already
 * has an appointment at that time) is answered as a person would: another slot.
 */
async function book(item) {
  for (let attempt = 0; attempt < 6; attempt += 1) {
    item.slot = await freeSlot(item.index + attempt * 3);
    const response = await request("/paciente/citas", {
      method: "POST",
      form: bookingForm(item),
      cookie: patientCookie,
    });
    const location = String(response.headers.location ?? "");
    const match = /^\/pagos\/webpay\/ir\/([0-9a-f-]{36})$/.exec(location);
    if (response.status === 302 && match) {
      item.paymentId = match[1];
      return;
    }
    if (response.status !== 409) {
      throw new Error(`booking ${item.note}: ${response.status} ${location} ${response.body.slice(0, 300)}`);
    }
  }
  throw new Error(`booking ${item.note}: no slot accepted in 6 tries`);
}

/** The checkout page posts token_ws to Webpay's form; the token is read from it as the browser would send it. */
async function checkout(item) {
  const response = await request(`/pagos/webpay/ir/${item.paymentId}`, { cookie: patientCookie });
  const token = /name="token_ws"[^>]*value="([0-9a-f]+)"/.exec(response.body)?.[1];
  if (response.status !== 200 || !token) throw new Error(`checkout ${item.note}: ${response.status}`);
  item.token = token;
  const transaction = await fakeTransaction(token);
  if (!transaction) throw new Error(`checkout ${item.note}: the fake does not know its token`);
  item.buyOrder = transaction.buyOrder;
}

/** What the payer does on Webpay's form: the fields their browser then posts to our return_url. */
async function payOnForm(item, outcome) {
  const result = await fakeCall("/__fake/pay", { token: item.token, outcome });
  if (result.returnUrl !== `${base}/pagos/webpay/retorno`) {
    throw new Error(`Webpay would send the payer to ${result.returnUrl}`);
  }
  item.returnFields = result.fields;
  item.paid = outcome;
}

async function postReturn(item) {
  const response = await request("/pagos/webpay/retorno", { method: "POST", form: item.returnFields });
  item.returns.push(response.status);
  if (response.status !== 303) throw new Error(`return ${item.note}: ${response.status}`);
  return response;
}

/** The browser's request died with the server; the payer reloads the page (the form is posted again). */
async function postReturnAgain(item) {
  await up.promise;
  await postReturn(item);
  item.returnedAgain = true;
}

// ---------------------------------------------------------------------------------------------------------------
// The cases. Kills come first, so the claims they leave lapse while the quiet cases run.

const items = [];

function newItem(kind) {
  const index = items.length;
  const item = { index, kind, note: `${NOTE_PREFIX}-${index}-${kind}`, returns: [], events: [] };
  items.push(item);
  return item;
}

/** (a) The commit is held on its way in to Webpay; the server dies while it waits; Webpay applies it anyway. */
async function windowBeforeCommit(retry) {
  const item = newItem("window-a");
  await book(item);
  await checkout(item);
  await payOnForm(item, "approve");
  await fakeCall("/__fake/fail", {
    operation: "commit",
    token: item.token,
    times: 1,
    delayMs: HELD_COMMIT_MS,
  });
  const returned = postReturn(item).catch((error) => item.events.push(`return died: ${error.message}`));
  await untilFake(
    (state) => state.calls.some((call) => call.operation === "commit" && call.path.endsWith(item.token)),
    10_000,
    `the commit of ${item.note}`,
  );
  const before = await fakeTransaction(item.token);
  // INITIALIZED: the kill landed in the window (a machine too slow to see the call within the delay would not).
  item.events.push(`killed with the commit in flight (Webpay: ${before.status})`);
  await killAndRestart(`${item.note}: commit held before Webpay applied it`);
  await returned;
  // The fake goes on with the held commit although its caller is gone (webpay-fake.test.ts checks that too).
  let after = await fakeTransaction(item.token);
  const until = lastKillAt + HELD_COMMIT_MS + 5_000;
  while (after.status === "INITIALIZED" && Date.now() < until) {
    await sleep(50);
    after = await fakeTransaction(item.token);
  }
  item.webpayAppliedAfterKill = after.status === "AUTHORIZED";
  item.events.push(
    item.webpayAppliedAfterKill
      ? "Webpay applied the commit after the caller died"
      : `Webpay did not apply the commit (${after.status}): the commit never reached it`,
  );
  if (retry) await postReturnAgain(item);
}

/** (b) Webpay applied the commit and holds its answer; the server dies before it can write what Webpay did. */
async function windowAfterCommit(retry) {
  const item = newItem("window-b");
  await book(item);
  await checkout(item);
  await payOnForm(item, "approve");
  await fakeCall("/__fake/fail", {
    operation: "commit",
    token: item.token,
    times: 1,
    delayAfterApplyMs: HELD_COMMIT_MS,
  });
  const returned = postReturn(item).catch((error) => item.events.push(`return died: ${error.message}`));
  await untilFake(
    (state) => state.transactions.find((row) => row.token === item.token && row.status === "AUTHORIZED"),
    10_000,
    `${item.note} AUTHORIZED`,
  );
  item.events.push("killed after Webpay's commit, before its answer");
  await killAndRestart(`${item.note}: Webpay committed, our write not done`);
  await returned;
  if (retry) await postReturnAgain(item);
}

/** A kill at a random moment of a booking's request: the booking, its charge, its attempt or its token may be lost. */
async function killDuringBooking() {
  const item = newItem("kill-booking");
  item.slot = await freeSlot(item.index);
  const booked = request("/paciente/citas", {
    method: "POST",
    form: bookingForm(item),
    cookie: patientCookie,
  }).then(
    (response) => item.events.push(`booking answered ${response.status} before the kill`),
    (error) => item.events.push(`booking died: ${error.code ?? error.message}`),
  );
  await sleep(randomInt(0, 150));
  await killAndRestart(`${item.note}: during the booking request`);
  await booked;
}

/** A kill at a random moment after an approved payer's return; the payer reloads the return page afterwards. */
async function killAfterReturn() {
  const item = newItem("kill-return");
  await book(item);
  await checkout(item);
  await payOnForm(item, "approve");
  const returned = postReturn(item).then(
    () => item.events.push("return answered before the kill"),
    (error) => item.events.push(`return died: ${error.message}`),
  );
  const after = randomInt(0, 200);
  await sleep(after);
  await killAndRestart(`${item.note}: ${after} ms after the return`);
  await returned;
  await postReturnAgain(item);
}

async function quiet(kind, outcome, { returns = 1 } = {}) {
  const item = newItem(kind);
  await book(item);
  await checkout(item);
  if (!outcome) return item;
  await payOnForm(item, outcome);
  if (returns === 0) return item;
  // Two tabs or a double click: the same return twice at once.
  await Promise.all(Array.from({ length: returns }, () => postReturn(item)));
  return item;
}

// ---------------------------------------------------------------------------------------------------------------
// Waiting for the reconciliation, through the admin's CSV of attempts still in progress ('Pendiente').

/** The admin export's dialect (app/domain/csv.ts): `;`, quotes doubled inside quoted cells, CRLF, a BOM. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = "";
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ";") {
      row.push(cell);
      cell = "";
    } else if (!quoted && char === "\n") {
      row.push(cell.replace(/\r$/, ""));
      rows.push(row);
      row = [];
      cell = "";
    } else {
      cell += char;
    }
  }
  if (cell || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** Buy orders of attempts nobody can settle yet: the payer never came back (or never paid) and the form is open. */
function expectedOpen(state) {
  const open = new Set(items.filter((item) => item.kind === "never-returned").map((item) => item.buyOrder));
  for (const transaction of state.transactions) {
    if (transaction.payer === "pending") open.add(transaction.buyOrder);
  }
  return open;
}

async function waitForSettlement() {
  // A claim left by a kill lapses after COMMIT_CLAIM_SECONDS; an attempt without a token expires after two minutes.
  const bookingKills = items.filter((item) => item.kind === "kill-booking").map((item) => item.startedAt);
  const deadline =
    Math.max(lastKillAt + COMMIT_CLAIM_SECONDS * 1000, ...bookingKills.map((at) => at + NO_TOKEN_EXPIRY_MS)) +
    JOB_SLACK_MS +
    30_000;
  for (;;) {
    await up.promise;
    const response = await request("/admin/pagos.csv?estado=created", { cookie: adminCookie });
    if (response.status !== 200) throw new Error(`admin CSV: ${response.status}`);
    const [header, ...rows] = parseCsv(response.body).filter((row) => row.length > 1);
    const column = header.indexOf("Orden de compra");
    if (column === -1) throw new Error(`admin CSV without "Orden de compra": ${header.join(";")}`);
    const open = expectedOpen(await fakeState());
    const pending = rows.map((row) => row[column]).filter((buyOrder) => !open.has(buyOrder));
    if (pending.length === 0) return { settled: true };
    if (Date.now() > deadline) return { settled: false, pending };
    await sleep(1_000);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The checks, on the database after a clean stop and on the fake's transactions.

async function readDatabase() {
  const db = await PGlite.create(path.join(dataDir, "pglite"), {
    extensions: { btree_gin, btree_gist, pg_trgm, unaccent },
  });
  try {
    const query = async (sql) => (await db.query(sql)).rows;
    return {
      payments: await query(
        `select id::text, charge_id::text, status, token, buy_order, amount, refunded_amount, returned_at,
                created_at, form_expires_at, commit_claimed_at, settled_by from payments`,
      ),
      charges: await query(
        `select id::text, kind, status, appointment_id::text, amount from charges where kind = 'deposit'`,
      ),
      refunds: await query(`select payment_id::text, amount, status from payment_refunds`),
      appointments: await query(
        `select a.id::text, a.status, a.notes, a.payment_hold_expires_at from appointments a
         where a.notes like '${NOTE_PREFIX}-%' or a.id in (select appointment_id from charges)`,
      ),
    };
  } finally {
    await db.close();
  }
}

const MONEY_TAKEN = new Set(["authorized", "partially_refunded", "refunded"]);

function invariants(db, transactions, now) {
  const violations = [];
  const fail = (message) => violations.push(message);
  const byToken = new Map(transactions.map((transaction) => [transaction.token, transaction]));
  const refundsOf = (paymentId) => db.refunds.filter((refund) => refund.payment_id === paymentId);
  const paymentsOf = (chargeId) => db.payments.filter((payment) => payment.charge_id === chargeId);
  const chargeOf = (appointmentId) => db.charges.find((charge) => charge.appointment_id === appointmentId);
  /** An authorized payment that still counts as the charge's money: not given back (done or pending) in full. */
  const kept = (payment) =>
    MONEY_TAKEN.has(payment.status) &&
    refundsOf(payment.id)
      .filter((refund) => refund.status !== "failed")
      .reduce((sum, refund) => sum + refund.amount, 0) < payment.amount;

  // Every sale Webpay holds is ours exactly once, credited to its charge (or given back by rule).
  for (const transaction of transactions) {
    const ours = db.payments.filter((payment) => payment.token === transaction.token);
    const sold = transaction.committedAt !== null && transaction.responseCode === 0;
    if (!sold) {
      if (ours.some((payment) => MONEY_TAKEN.has(payment.status))) {
        fail(`${transaction.buyOrder}: recorded as paid but Webpay holds ${transaction.status} (never sold)`);
      }
      continue;
    }
    if (ours.length !== 1) {
      fail(
        `${transaction.buyOrder}: Webpay sold it (${transaction.status}) but ${ours.length} payments have it`,
      );
      continue;
    }
    const [payment] = ours;
    const charge = db.charges.find((row) => row.id === payment.charge_id);
    const refunds = refundsOf(payment.id);
    if (transaction.status === "AUTHORIZED" && transaction.refunds.length === 0) {
      if (payment.status !== "authorized") {
        fail(`${transaction.buyOrder}: Webpay AUTHORIZED, our payment is '${payment.status}'`);
      } else if (charge?.status !== "paid" && refunds.length === 0) {
        fail(
          `${transaction.buyOrder}: authorized but its charge is '${charge?.status}' and nothing was refunded`,
        );
      }
    } else if (transaction.refunds.length > 0) {
      const given = transaction.refunds.reduce((sum, refund) => sum + refund.amount, 0);
      const recorded = refunds.filter((refund) => refund.status === "done").reduce((s, r) => s + r.amount, 0);
      if (given !== recorded)
        fail(`${transaction.buyOrder}: Webpay refunded ${given}, we recorded ${recorded}`);
    }
    if (MONEY_TAKEN.has(payment.status) && payment.amount !== transaction.amount) {
      fail(`${transaction.buyOrder}: we recorded ${payment.amount}, Webpay charged ${transaction.amount}`);
    }
  }

  // Nothing we count as money that Webpay did not take.
  for (const payment of db.payments) {
    if (!MONEY_TAKEN.has(payment.status)) continue;
    const transaction = byToken.get(payment.token);
    if (!transaction?.committedAt || transaction.responseCode !== 0) {
      fail(`${payment.buy_order}: '${payment.status}' without a sale on Webpay (${transaction?.status})`);
    }
  }

  // No charge credited twice; a paid deposit has exactly its one payment; an open one has none.
  for (const charge of db.charges) {
    const money = paymentsOf(charge.id).filter(kept);
    if (money.length > 1) fail(`charge ${charge.id}: credited ${money.length} times without a refund`);
    if (charge.status === "paid" && money.length !== 1) {
      fail(`charge ${charge.id}: 'paid' with ${money.length} authorized payments`);
    }
    if (charge.status === "open" && money.length > 0) fail(`charge ${charge.id}: 'open' but paid online`);
  }

  // Bookings: confirmed only with their deposit; nothing held past its deadlines.
  for (const appointment of db.appointments) {
    const charge = chargeOf(appointment.id);
    if (!charge) {
      // Implants always ask a deposit: the hold and its charge are written in one transaction.
      if (appointment.notes?.startsWith(NOTE_PREFIX))
        fail(`${appointment.notes}: booked without its deposit`);
      continue;
    }
    const money = paymentsOf(charge.id).filter(kept);
    const paid = charge.status === "paid" && money.length === 1;
    if (["scheduled", "confirmed", "completed", "in_progress"].includes(appointment.status) && !paid) {
      fail(`appointment ${appointment.notes ?? appointment.id}: '${appointment.status}' without its deposit`);
    }
    if (paid && appointment.status !== "confirmed") {
      fail(`appointment ${appointment.notes ?? appointment.id}: deposit paid but '${appointment.status}'`);
    }
    if (appointment.status === "pending_payment") {
      const latestOpen = paymentsOf(charge.id)
        .filter((payment) => payment.status === "created")
        .map((payment) => payment.form_expires_at)
        .toSorted((a, b) => b - a)[0];
      const due = holdReleaseDecision({
        holdExpiresAt: appointment.payment_hold_expires_at,
        openAttemptFormExpiresAt: latestOpen ?? null,
        now: new Date(now.getTime() - JOB_SLACK_MS),
      });
      if (due)
        fail(`appointment ${appointment.notes ?? appointment.id}: still 'pending_payment' past its hold`);
    }
  }

  // Attempts still open: none the reconciliation should have settled (by the domain's own schedule) a while ago.
  for (const payment of db.payments) {
    if (payment.status !== "created") continue;
    const step = reconciliationStep({
      hasToken: Boolean(payment.token),
      createdAt: payment.created_at,
      returnedAt: payment.returned_at,
      formExpiresAt: payment.form_expires_at,
      commitClaimedAt: payment.commit_claimed_at,
      now: new Date(now.getTime() - JOB_SLACK_MS),
    });
    if (step !== "wait") fail(`${payment.buy_order}: still 'created', due to ${step} well before the end`);
  }
  return violations;
}

/** What each case must have come to (the random kills only have to satisfy the invariants above). */
function expectations(db) {
  const violations = [];
  for (const item of items) {
    const appointment = db.appointments.find((row) => row.notes === item.note);
    // A booking killed mid-request has no known attempt: its latest one, if any.
    const payment = item.paymentId
      ? db.payments.find((row) => row.id === item.paymentId)
      : db.payments
          .filter((row) => row.charge_id === db.charges.find((c) => c.appointment_id === appointment?.id)?.id)
          .toSorted((a, b) => b.created_at - a.created_at)[0];
    const want = {
      approve: ["authorized", "confirmed"],
      "approve-twice": ["authorized", "confirmed"],
      reject: ["rejected", "payment_failed"],
      abort: ["aborted", "payment_failed"],
      timeout: ["expired", "payment_failed"],
      "never-returned": ["created", "pending_payment"],
      "left-on-form": ["created", "pending_payment"],
      "window-a": item.webpayAppliedAfterKill ? ["authorized", "confirmed"] : null,
      "window-b": ["authorized", "confirmed"],
    }[item.kind];
    item.outcome = `${payment?.status ?? "no payment"} / ${appointment?.status ?? "no booking"}`;
    if (!want) continue;
    if (payment?.status !== want[0] || appointment?.status !== want[1]) {
      violations.push(`${item.note}: ${item.outcome}, expected ${want.join(" / ")}`);
    }
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------------------------
// The run.

let exitCode = 0;
const runStarted = Date.now();
let settlement;
const counts = {};
try {
  log(
    `payments crash test: ${windowsEach} kills in each commit window, ${randomKills} random kills; ` +
      `server ${base}, Webpay fake ${fakeUrl}`,
  );
  log(`DATA_DIR ${dataDir}`);
  await startFake();
  await bootUntilHealthy({ restart: false });
  if (aborted) throw new Error("the first boot failed");
  log(`first boot (fresh database, demo data) healthy after ${lastBootMs} ms`);
  patientCookie = await signIn(PATIENT_EMAIL);
  adminCookie = await signIn(ADMIN_EMAIL);

  const crashes = [];
  for (let i = 0; i < randomKills; i += 1) {
    crashes.push(i === 0 ? killDuringBooking : killAfterReturn);
  }
  for (let i = 0; i < windowsEach; i += 1) {
    crashes.push(
      () => windowBeforeCommit(i % 2 === 1),
      () => windowAfterCommit(i % 2 === 0),
    );
  }
  // The booking kill first: the attempt it may leave without a token takes two minutes to expire.
  const [first, ...others] = crashes;
  for (const crash of [first, ...others.toSorted(() => Math.random() - 0.5)]) {
    const startedAt = Date.now();
    await crash();
    items.at(-1).startedAt = startedAt;
    log(`${items.at(-1).note}: ${items.at(-1).events.join("; ")}`);
  }
  log(
    "quiet cases: approved, approved with the return posted twice, rejected, aborted, timed out, never returned",
  );
  await quiet("approve", "approve");
  await quiet("approve-twice", "approve", { returns: 2 });
  await quiet("reject", "reject");
  await quiet("abort", "abort");
  await quiet("timeout", "timeout");
  await quiet("never-returned", "approve", { returns: 0 });
  await quiet("left-on-form", null);

  log(
    `waiting for the reconciliation (every ${RECONCILIATION_MS / 1000} s; claims lapse after ${COMMIT_CLAIM_SECONDS} s)`,
  );
  const waitStarted = Date.now();
  settlement = await waitForSettlement();
  settlement.waitedMs = Date.now() - waitStarted;
  const waited = Math.round(settlement.waitedMs / 1000);
  if (settlement.settled) log(`settled after ${waited} s of waiting`);
  else problems.push(`still 'Pendiente' after ${waited} s of waiting: ${settlement.pending.join(", ")}`);

  // A graceful stop before reading the files (PGlite allows one process per data directory).
  finished = true;
  // The deadlines are judged at the stop: nothing could be settled after it.
  const stoppedAt = new Date();
  current.child.kill("SIGTERM");
  const { code, signal } = await current.exited;
  if (code !== 0) {
    problems.push(`SIGTERM did not stop the server cleanly (exit ${code ?? signal}):\n${current.output()}`);
  }
  const { transactions } = await fakeState();
  const db = await readDatabase();
  problems.push(...invariants(db, transactions, stoppedAt), ...expectations(db));
  if (stats.failedBoots > 0) problems.push(`${stats.failedBoots} restarts did not open the database`);

  for (const payment of db.payments) counts[payment.status] = (counts[payment.status] ?? 0) + 1;
  log("\ncases");
  console.table(
    items.map((item) => ({
      case: item.note,
      outcome: item.outcome,
      returns: item.returns.join(",") || "—",
      events: item.events.join("; ").slice(0, 90) || "—",
    })),
  );
  const bootMs = stats.bootMs.toSorted((a, b) => a - b);
  const webpay = {};
  for (const transaction of transactions) webpay[transaction.status] = (webpay[transaction.status] ?? 0) + 1;
  log("\nsummary");
  console.table({
    bookings: items.length,
    kills: stats.kills,
    killsDuringBoot: stats.bootKills,
    restarts: stats.restarts,
    failedReopens: stats.failedBoots,
    unexpectedExits: stats.unexpectedExits,
    payments: Object.entries(counts)
      .map(([status, n]) => `${status} ${n}`)
      .join(", "),
    webpay: Object.entries(webpay)
      .map(([status, n]) => `${status} ${n}`)
      .join(", "),
    refunds: db.refunds.length,
    secondsWaitingForReconciliation: Math.round(settlement.waitedMs / 100) / 10,
    bootMsMedian: bootMs[Math.floor(bootMs.length / 2)],
    bootMsMax: bootMs.at(-1),
    seconds: Math.round((Date.now() - runStarted) / 100) / 10,
  });
} catch (error) {
  problems.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  finished = true;
  current?.child.kill("SIGKILL");
  fake?.child.kill("SIGTERM");
}

const seconds = Math.round((Date.now() - runStarted) / 1000);
if (problems.length > 0 || stats.unexpectedExits > 0) {
  exitCode = 1;
  console.error(`\nFAIL (${seconds} s)\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
  console.error(`DATA_DIR kept for inspection: ${dataDir}`);
} else {
  log(
    `\nPASS (${seconds} s): ${items.length} bookings, ${stats.kills} kills; every Webpay sale is one paid deposit, ` +
      "nothing credited twice, nothing unpaid confirmed, nothing left pending past its deadline",
  );
  if (!args.keep) rmSync(dataDir, { recursive: true, force: true });
  else log(`DATA_DIR kept: ${dataDir}`);
}
process.exit(exitCode);
