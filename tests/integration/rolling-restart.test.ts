import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, clinicDate, clinicInstant } from "~/domain/clinic-time";
import { DEFAULT_WEEK, openDays, slotTimes } from "~/domain/slots";
import { startWhatsAppFake, type WhatsAppFake } from "~/integrations/whatsapp/whatsapp-fake";
import { startFakeSmtp, type FakeSmtp } from "../setup/fake-smtp";
import { postgresUrlFromEnv } from "../setup/postgres-database";
import { projectRoot, startProdServer, type ProdServer } from "../setup/prod-server";

// Issue 25, "upgrades without errors": two production instances (server.mjs + build/) on this file's PostgreSQL
// database, behind a small proxy written here (round-robin, health-checked on /readyz, retrying a request elsewhere
// only when the connection was refused before a byte was sent — nginx's `proxy_next_upstream error`). A steady load
// of page views, lead submissions, sign-ups and bookings runs while each instance in turn gets SIGTERM, drains,
// exits and is replaced by a fresh one on a new port. No request may fail, and every acknowledged lead and booking
// must be in the database exactly once.

const postgresUrl = postgresUrlFromEnv();
if (!postgresUrl) {
  console.info(
    "rolling-restart.test.ts skipped: no PostgreSQL in this project (it runs in the integration-postgres project, which needs TEST_DATABASE_URL)",
  );
}

/** After SIGTERM the instance keeps accepting this long while /readyz answers 503 (docs/operations.md). */
const SHUTDOWN_DELAY_MS = 3_000;
/** The proxy's health-check interval: far below SHUTDOWN_DELAY_MS, as the operations guide asks. */
const CHECK_INTERVAL_MS = 100;
/** A health check that takes longer counts as failed (the instance leaves the rotation until the next one passes). */
const CHECK_TIMEOUT_MS = 1_500;
/** How long any one condition of the test may take before the test fails naming it (a generous bound, not a pace). */
const CONDITION_MS = 45_000;
/** The proxy closes an idle pooled connection after this, well before the server's keep-alive timeout (5 s). */
const UPSTREAM_IDLE_MS = 2_000;

/** MAX_UPCOMING_APPOINTMENTS on the instances: a booking loop's patient books this many, then a new one signs up. */
const BOOKINGS_PER_PATIENT = 100;
const PASSWORD = "rodante-clave-2026";
const LEAD_ACK = "Recibimos tu solicitud";
const BOOKING_ACK = "quedó agendada";
const WHATSAPP_KEY = "fake-whatsapp-key-rolling";
const WHATSAPP_SECRET = "rolling-webhook-secret-0123456789";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds (checked every 20 ms), or fails naming `what`. */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = CONDITION_MS) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await sleep(20);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The proxy
// ---------------------------------------------------------------------------------------------------------------

interface Upstream {
  port: number;
  /** Whether the last health check passed (a new upstream starts out of the rotation until one does). */
  healthy: boolean;
  /** Taken out of the proxy's list (its process exited): no traffic, no more checks. */
  removed: boolean;
  /**
   * The last health check that ended: when it started and what it found — ready (200), not ready (any other answer:
   * /readyz says 503 while the instance drains) or unreachable (refused, reset or too slow).
   */
  lastCheck: { startedAt: number; state: "ready" | "not ready" | "unreachable" } | null;
  /** What the last check that got an answer heard: a draining instance's last word is "not ready". */
  lastAnswer: "ready" | "not ready" | null;
  /** Keep-alive connections to the instance, as nginx's `keepalive` keeps them. */
  agent: http.Agent;
  /** Responses this upstream gave to proxied requests. */
  served: number;
}

interface ProxyFailure {
  /** When, in ms since the proxy started. */
  at: number;
  upstream: number;
  method: string;
  path: string;
  error: string;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

function withoutHopByHop(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const kept: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}

/**
 * A round-robin reverse proxy on 127.0.0.1. It reads the client's whole body first (nginx's request buffering), then
 * sends the request to the next healthy upstream on a pooled keep-alive connection. A refused connection — nothing
 * was sent — is tried on the next upstream; any other failure (a reset, a connection closed before or during the
 * response) is answered 502 and recorded: the request may have reached the instance, so it is never sent again.
 */
class RoundRobinProxy {
  readonly upstreams: Upstream[] = [];
  readonly failures: ProxyFailure[] = [];
  /** Requests sent again after a refused connection. */
  refusedRetries = 0;
  private cursor = 0;
  private stopped = false;
  private server!: http.Server;
  readonly startedAt = Date.now();
  port = 0;

  async start() {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  add(port: number): Upstream {
    const upstream: Upstream = {
      port,
      healthy: false,
      removed: false,
      lastCheck: null,
      lastAnswer: null,
      agent: new http.Agent({ keepAlive: true, maxSockets: 16, timeout: UPSTREAM_IDLE_MS }),
      served: 0,
    };
    this.upstreams.push(upstream);
    void this.healthLoop(upstream);
    return upstream;
  }

  remove(upstream: Upstream) {
    upstream.removed = true;
    upstream.healthy = false;
    upstream.agent.destroy();
  }

  async stop() {
    this.stopped = true;
    for (const upstream of this.upstreams) upstream.agent.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async healthLoop(upstream: Upstream) {
    while (!this.stopped && !upstream.removed) {
      const startedAt = Date.now();
      const state = await this.check(upstream.port);
      if (upstream.removed) return;
      upstream.lastCheck = { startedAt, state };
      if (state !== "unreachable") upstream.lastAnswer = state;
      upstream.healthy = state === "ready";
      await sleep(CHECK_INTERVAL_MS);
    }
  }

  /** GET /readyz on a connection of its own: ready only on a 200 within CHECK_TIMEOUT_MS. */
  private check(port: number): Promise<NonNullable<Upstream["lastCheck"]>["state"]> {
    return new Promise((resolve) => {
      const request = http.get(
        { host: "127.0.0.1", port, path: "/readyz", agent: false, timeout: CHECK_TIMEOUT_MS },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode === 200 ? "ready" : "not ready"));
          response.on("error", () => resolve("unreachable"));
        },
      );
      request.on("timeout", () => request.destroy(new Error("health check timed out")));
      request.on("error", () => resolve("unreachable"));
    });
  }

  /**
   * The next upstream in turn among the healthy ones not tried yet. If none is healthy (a check timed out on a busy
   * machine), any not tried yet whose last answer was "ready": never one that said it is draining, nor a new one
   * that has not been ready yet.
   */
  private pick(tried: Set<Upstream>): Upstream | undefined {
    const live = this.upstreams.filter((upstream) => !upstream.removed && !tried.has(upstream));
    const healthy = live.filter((upstream) => upstream.healthy);
    const candidates =
      healthy.length > 0 ? healthy : live.filter((upstream) => upstream.lastAnswer === "ready");
    if (candidates.length === 0) return undefined;
    this.cursor = (this.cursor + 1) % candidates.length;
    return candidates[this.cursor];
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => this.forward(req, res, Buffer.concat(chunks), new Set()));
  }

  private fail(res: http.ServerResponse, failure: ProxyFailure) {
    this.failures.push(failure);
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { "content-type": "text/plain" }).end(`proxy: ${failure.error}`);
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tried: Set<Upstream>) {
    const upstream = this.pick(tried);
    if (!upstream) {
      this.fail(res, {
        at: Date.now() - this.startedAt,
        upstream: 0,
        method: req.method ?? "",
        path: req.url ?? "",
        error: "no upstream left",
      });
      return;
    }
    tried.add(upstream);
    const headers = withoutHopByHop(req.headers);
    const client = req.socket.remoteAddress ?? "";
    const forwarded = req.headers["x-forwarded-for"];
    headers["x-forwarded-for"] = forwarded ? `${String(forwarded)}, ${client}` : client;
    headers["x-forwarded-proto"] = "http";
    if (body.length > 0 || (req.method !== "GET" && req.method !== "HEAD"))
      headers["content-length"] = String(body.length);

    const outgoing = http.request({
      host: "127.0.0.1",
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers,
      agent: upstream.agent,
    });
    let answered = false;
    const failure = (error: string) => ({
      at: Date.now() - this.startedAt,
      upstream: upstream.port,
      method: req.method ?? "",
      path: req.url ?? "",
      error,
    });
    outgoing.on("response", (incoming) => {
      answered = true;
      res.writeHead(incoming.statusCode ?? 502, withoutHopByHop(incoming.headers));
      incoming.pipe(res);
      incoming.on("error", (error) => this.fail(res, failure(`response cut: ${error.message}`)));
      incoming.on("end", () => {
        upstream.served += 1;
      });
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) return;
      // Refused: the connection never opened, so nothing was sent; the next upstream may take it.
      if (error.code === "ECONNREFUSED") {
        this.refusedRetries += 1;
        this.forward(req, res, body, tried);
        return;
      }
      this.fail(res, failure(`${error.code ?? "error"}: ${error.message}`));
    });
    outgoing.end(body);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The load
// ---------------------------------------------------------------------------------------------------------------

type Kind = "page" | "lead" | "signup" | "booking";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface ClientFailure {
  kind: Kind;
  what: string;
  status?: number;
  error?: string;
  body?: string;
}

/** One booking: the patient and the start. */
const bookingKey = (patientId: string, startsAt: Date) => `${patientId} ${startsAt.toISOString()}`;

const run = randomBytes(3).toString("hex");
let ipCount = 0;
/** A loopback address not used before in this file: the proxy forwards it as the client (X-Forwarded-For). */
function freshIp() {
  ipCount += 1;
  return `127.91.${Math.floor(ipCount / 250)}.${(ipCount % 250) + 1}`;
}
let phoneCount = 0;
const phoneBase = String(Math.floor(Math.random() * 9000) + 1000);
/** A Chilean mobile number no other lead of this run has (a repeated one would be merged into the open lead). */
function freshPhone() {
  phoneCount += 1;
  return `+569${phoneBase}${String(phoneCount).padStart(4, "0")}`;
}

const suite = postgresUrl ? describe : describe.skip;

suite(
  postgresUrl
    ? "rolling restart: two production instances behind a health-checked proxy on PostgreSQL"
    : "rolling restart (skipped: no PostgreSQL — runs in the integration-postgres project)",
  () => {
    let pool: pg.Pool;
    let smtp: FakeSmtp;
    let whatsApp: WhatsAppFake;
    let proxy: RoundRobinProxy;
    let publicBaseUrl: string;
    const instances = new Set<ProdServer>();
    const counts: Record<Kind, number> = { page: 0, lead: 0, signup: 0, booking: 0 };
    const failures: ClientFailure[] = [];
    const acknowledgedLeads: string[] = [];
    const acknowledgedBookings: Array<{ patientId: string; startsAt: Date }> = [];
    /** Patients signed up by the load, to count their appointments. */
    const patients: string[] = [];

    function serverEnv(): Record<string, string> {
      return {
        DATABASE_URL: postgresUrl!,
        PUBLIC_BASE_URL: publicBaseUrl,
        // The proxy on loopback forwards the client's address.
        TRUST_PROXY: "loopback",
        SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
        SMTP_URL: `${smtp.url}?ignoreTLS=true`,
        WHATSAPP_BASE_URL: whatsApp.url,
        WHATSAPP_API_KEY: WHATSAPP_KEY,
        WHATSAPP_SENDER: "56226543210",
        WHATSAPP_WEBHOOK_SECRET: WHATSAPP_SECRET,
        MAX_UPCOMING_APPOINTMENTS: String(BOOKINGS_PER_PATIENT),
      };
    }

    async function startInstance(): Promise<ProdServer> {
      const server = await startProdServer(serverEnv());
      instances.add(server);
      return server;
    }

    /** One request through the proxy, from `from` (the proxy's view of the client), on `agent`. */
    function send(
      method: string,
      pathname: string,
      options: { body?: string; cookie?: string; from?: string; agent?: http.Agent } = {},
    ): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string> = { origin: publicBaseUrl };
        if (options.body !== undefined) {
          headers["content-type"] = "application/x-www-form-urlencoded";
          headers["content-length"] = String(Buffer.byteLength(options.body));
        }
        if (options.cookie) headers.cookie = options.cookie;
        const request = http.request(
          {
            host: "127.0.0.1",
            port: proxy.port,
            method,
            path: pathname,
            headers,
            agent: options.agent ?? false,
            localAddress: options.from,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
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
        request.on("error", reject);
        request.end(options.body);
      });
    }

    /** Sends, counts, and records anything but `accepted` as a failure; answers whether it was accepted. */
    async function attempt(
      kind: Kind,
      what: string,
      request: () => Promise<Answer>,
      accepted: (answer: Answer) => boolean,
    ): Promise<Answer | null> {
      counts[kind] += 1;
      try {
        const answer = await request();
        if (accepted(answer)) return answer;
        failures.push({ kind, what, status: answer.status, body: answer.body.slice(0, 300) });
      } catch (error) {
        failures.push({ kind, what, error: error instanceof Error ? error.message : String(error) });
      }
      return null;
    }

    /** The load loops run while this is true (an object, so that the loops read its current value). */
    const load = { running: false };

    async function pageViews(agent: http.Agent) {
      for (let index = 0; load.running; index++) {
        const pathname = index % 2 === 0 ? "/" : "/blog";
        await attempt(
          "page",
          `GET ${pathname}`,
          () => send("GET", pathname, { agent }),
          (answer) => answer.status === 200,
        );
      }
    }

    async function leadSubmissions() {
      while (load.running) {
        const submissionId = randomUUID();
        const body = new URLSearchParams({
          submissionId,
          name: "Rodrigo Rodante",
          phone: freshPhone(),
          email: `rodante-${run}-${submissionId}@example.com`,
          treatment: "implantes",
          urgency: "inmediato",
          budget: "alto",
          message: "Quiero evaluar un implante.",
          consent: "on",
          source: "web",
        }).toString();
        // A fresh client each time: the lead form allows 10 an hour per address.
        const answer = await attempt(
          "lead",
          "POST /?index",
          () => send("POST", "/?index", { body, from: freshIp() }),
          (response) => response.status === 200 && response.body.includes(LEAD_ACK),
        );
        if (answer) acknowledgedLeads.push(submissionId);
      }
    }

    /** A patient signed up through the proxy (a request of the load like any other), with a verified e-mail. */
    async function signUpPatient(): Promise<{ id: string; cookie: string } | null> {
      const email = `paciente-${run}-${randomUUID()}@example.com`;
      const body = new URLSearchParams({
        intent: "signup",
        firstName: "Rut",
        lastName: "Rodante",
        email,
        password: PASSWORD,
      }).toString();
      const answer = await attempt(
        "signup",
        "POST /auth (signup)",
        () => send("POST", "/auth", { body, from: freshIp() }),
        (response) => response.status === 302 && response.headers.location === "/paciente",
      );
      const cookie = answer?.headers["set-cookie"]
        ?.map((header) => header.split(";")[0]!)
        .find((pair) => /^clinica\.session_token=.+/.test(pair));
      if (!cookie) return null;
      // Booking needs a confirmed e-mail; the link itself is not what this test is about.
      const { rows } = await pool.query<{ id: string }>(
        "update users set email_verified = true where email = $1 returning id",
        [email],
      );
      const id = rows[0]!.id;
      patients.push(id);
      return { id, cookie };
    }

    /** Books slot after slot of its own dentist, as a signed-in patient through /paciente/citas; a new patient at the cap. */
    async function bookings(dentistId: string, agent: http.Agent) {
      const from = freshIp();
      const slots = openDays(addDays(clinicDate(new Date()), 2), 60, DEFAULT_WEEK).flatMap((date) =>
        slotTimes(date, DEFAULT_WEEK, 30).map((time) => ({ date, time })),
      );
      let patient: { id: string; cookie: string } | null = null;
      let booked = 0;
      for (const slot of slots) {
        if (!load.running) return;
        if (!patient || booked === BOOKINGS_PER_PATIENT) {
          patient = await signUpPatient();
          booked = 0;
          if (!patient) return;
        }
        const current = patient;
        const body = new URLSearchParams({
          intent: "book",
          treatment: "consulta",
          dentist: dentistId,
          date: slot.date,
          time: slot.time,
        }).toString();
        const answer = await attempt(
          "booking",
          `POST /paciente/citas ${slot.date} ${slot.time}`,
          () => send("POST", "/paciente/citas", { body, cookie: current.cookie, from, agent }),
          (response) => response.status === 200 && response.body.includes(BOOKING_ACK),
        );
        if (answer) {
          booked += 1;
          acknowledgedBookings.push({ patientId: current.id, startsAt: clinicInstant(slot.date, slot.time) });
        }
      }
      throw new Error("the booking loop ran out of slots");
    }

    /** A dentist of the clinic (no sign-in needed: patients book with them). */
    async function insertDentist(index: number): Promise<string> {
      const id = `rodante-dentista-${run}-${index}`;
      await pool.query(
        "insert into users (id, first_name, last_name, email, email_verified) values ($1, $2, $3, $4, true)",
        [id, "Dentista", `Rodante ${index}`, `dentista-${run}-${index}@example.com`],
      );
      await pool.query(
        "insert into user_roles (user_id, role_id) select $1, id from roles where name = 'dentista'",
        [id],
      );
      return id;
    }

    beforeAll(async () => {
      if (!existsSync(path.join(projectRoot, "build/server/index.js"))) {
        throw new Error("run `npx react-router build` first");
      }
      pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
      proxy = new RoundRobinProxy();
      await proxy.start();
      publicBaseUrl = `http://127.0.0.1:${proxy.port}`;
      smtp = await startFakeSmtp();
      // Its delivery and seen reports come back through the proxy (the messages' notifyUrl is on PUBLIC_BASE_URL):
      // webhook POSTs from a provider, during the restarts like the rest of the load.
      whatsApp = await startWhatsAppFake({
        apiKey: WHATSAPP_KEY,
        reportsSecret: WHATSAPP_SECRET,
        reportDelayMs: 50,
      });
    });

    afterAll(async () => {
      load.running = false;
      // The load is over: a second signal ends SHUTDOWN_DELAY_MS's wait (two different signals, so that the second
      // is not merged into the first while it is pending).
      await Promise.all(
        [...instances].map(async (instance) => {
          instance.child.kill("SIGTERM");
          instance.child.kill("SIGINT");
          await instance.exited;
        }),
      );
      await proxy?.stop();
      await Promise.all([smtp?.close(), whatsApp?.close()]);
      await pool?.end();
    });

    it("restarts both instances one after the other under load without a failed request or a lost or doubled submission", async () => {
      const startedAt = Date.now();
      const first = await Promise.all([startInstance(), startInstance()]);
      let current = first.map((server) => ({ server, upstream: proxy.add(server.port) }));
      await until("both instances ready behind the proxy", () =>
        current.every(({ upstream }) => upstream.healthy),
      );
      // The roles exist once the first boot has seeded the reference data.
      const dentists = await Promise.all([insertDentist(1), insertDentist(2)]);

      const pageAgent = new http.Agent({ keepAlive: true, maxSockets: 2 });
      const bookingAgent = new http.Agent({ keepAlive: true, maxSockets: 2 });
      load.running = true;
      const loops = [
        pageViews(pageAgent),
        pageViews(pageAgent),
        leadSubmissions(),
        bookings(dentists[0]!, bookingAgent),
        bookings(dentists[1]!, bookingAgent),
      ];
      const loadStartedAt = Date.now();
      const restarts: Array<{
        old: number;
        fresh: number;
        noticedMs: number;
        exitCode: number | null;
        exitedMs: number;
        replacedMs: number;
        /** Requests of each kind sent between the SIGTERM and the new instance's first 20 responses. */
        during: Record<Kind, number>;
      }> = [];
      try {
        // Load on both before the first restart.
        await until("traffic on both instances", () =>
          current.every(({ upstream }) => upstream.served >= 20),
        );
        for (const slot of [0, 1]) {
          const old = current[slot]!;
          const sigtermAt = Date.now();
          const countsAtSigterm = { ...counts };
          old.server.child.kill("SIGTERM");
          // The proxy sees /readyz turn 503 and takes the instance out while it still accepts connections.
          await until("the proxy takes the stopping instance out", () =>
            Boolean(
              old.upstream.lastCheck &&
              old.upstream.lastCheck.startedAt > sigtermAt &&
              old.upstream.lastCheck.state !== "ready",
            ),
          );
          const noticedMs = Date.now() - sigtermAt;
          const exitCode = await old.server.exited;
          instances.delete(old.server);
          proxy.remove(old.upstream);
          // The new version: a fresh process on a new port, which the proxy learns and puts in once it is ready.
          const exitedAt = Date.now();
          const fresh = await startInstance();
          const upstream = proxy.add(fresh.port);
          await until("the new instance ready behind the proxy", () => upstream.healthy);
          await until("traffic on the new instance", () => upstream.served >= 20);
          restarts.push({
            old: old.server.port,
            fresh: fresh.port,
            noticedMs,
            exitCode,
            exitedMs: exitedAt - sigtermAt,
            replacedMs: Date.now() - sigtermAt,
            during: {
              page: counts.page - countsAtSigterm.page,
              lead: counts.lead - countsAtSigterm.lead,
              signup: counts.signup - countsAtSigterm.signup,
              booking: counts.booking - countsAtSigterm.booking,
            },
          });
          current = current.map((entry, index) => (index === slot ? { server: fresh, upstream } : entry));
        }
        // Some more load on the two new instances together.
        const servedBefore = current.map(({ upstream }) => upstream.served);
        await until("traffic on both new instances", () =>
          current.every(({ upstream }, index) => upstream.served >= servedBefore[index]! + 20),
        );
      } finally {
        load.running = false;
        await Promise.allSettled(loops);
        pageAgent.destroy();
        bookingAgent.destroy();
      }
      await Promise.all(loops);
      const loadMs = Date.now() - loadStartedAt;
      // The last reports of the messages sent so far (the instances are still up).
      await whatsApp.idle();

      const reportFailures = whatsApp.reports.filter((report) => report.status !== 200);
      const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
      console.info(
        `rolling-restart: ${total} requests in ${(loadMs / 1000).toFixed(1)} s of load (${counts.page} page views, ${counts.lead} leads, ${counts.booking} bookings, ${counts.signup} sign-ups) and ${whatsApp.reports.length} WhatsApp reports, ${failures.length + reportFailures.length} failed, ${proxy.failures.length} proxy errors, ${proxy.refusedRetries} refused connections sent elsewhere; restarts: ${restarts
          .map(
            (restart) =>
              `${restart.old}→${restart.fresh} (out of rotation ${restart.noticedMs} ms after SIGTERM, exit ${restart.exitCode} after ${restart.exitedMs} ms, the new one serving after ${restart.replacedMs} ms; meanwhile ${restart.during.page} page views, ${restart.during.lead} leads, ${restart.during.booking} bookings)`,
          )
          .join(", ")}; test ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
      );

      expect({ failures, reportFailures, proxyFailures: proxy.failures }).toEqual({
        failures: [],
        reportFailures: [],
        proxyFailures: [],
      });
      // Each drain finished every request (exit 1 would mean it cut some).
      expect(restarts.map((restart) => restart.exitCode)).toEqual([0, 0]);
      // The load really went on through each restart: page views, leads and bookings alike.
      for (const { during } of restarts) {
        expect(during.page).toBeGreaterThan(0);
        expect(during.lead).toBeGreaterThan(0);
        expect(during.booking).toBeGreaterThan(0);
      }

      // Every acknowledged lead is stored once, and nothing else was stored.
      const leads = await pool.query<{ submission_id: string; count: number }>(
        "select submission_id, count(*)::int as count from leads where email like $1 group by submission_id",
        [`rodante-${run}-%`],
      );
      const storedLeads = new Map(leads.rows.map((row) => [row.submission_id, row.count]));
      expect(acknowledgedLeads.filter((id) => storedLeads.get(id) !== 1)).toEqual([]);
      expect(storedLeads.size).toBe(acknowledgedLeads.length);

      // Every acknowledged booking is stored once, and nothing else was stored.
      const appointments = await pool.query<{ patient_id: string; starts_at: Date; count: number }>(
        "select patient_id, starts_at, count(*)::int as count from appointments where patient_id = any($1) group by patient_id, starts_at",
        [patients],
      );
      const storedBookings = new Map(
        appointments.rows.map((row) => [bookingKey(row.patient_id, row.starts_at), row.count]),
      );
      expect(
        acknowledgedBookings.filter(
          ({ patientId, startsAt }) => storedBookings.get(bookingKey(patientId, startsAt)) !== 1,
        ),
      ).toEqual([]);
      expect(storedBookings.size).toBe(acknowledgedBookings.length);
    }, 120_000);
  },
);
