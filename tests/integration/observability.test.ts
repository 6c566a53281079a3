import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniquePhone } from "../setup/clients";
import {
  freePort,
  httpForm,
  httpRequest,
  projectRoot,
  startProdServer,
  type ProdServer,
} from "../setup/prod-server";

// Issue 25, Observability: /readyz apart from /healthz (503 as SIGTERM's drain begins), /metrics behind
// METRICS_TOKEN with route ids (never URLs), and X-Request-Id on every response and every log line of the request.

const TOKEN = "metrics-token-0123456789abcdefghij";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Log lines (JSON) the server wrote so far. */
function logLines(server: ProdServer): Array<Record<string, unknown>> {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The line the embedded database's maintenance job writes when a pass ends. */
const passDone = (line: Record<string, unknown>) => line.msg === "database maintenance pass done";

function scrape(server: ProdServer, authorization?: string) {
  return httpRequest(server.port, "/metrics", { headers: authorization ? { authorization } : {} });
}

function leadForm(phone: string) {
  return {
    submissionId: randomUUID(),
    name: "Observada",
    phone,
    treatment: "implantes",
    urgency: "inmediato",
    budget: "alto",
    consent: "on",
  };
}

/** A form POST whose body the test sends in two pieces, the second one when the test says. */
function slowPost(port: number, pathname: string, body: string) {
  const {
    promise: response,
    resolve: settle,
    reject: fail,
  } = Promise.withResolvers<{
    status: number;
    body: string;
  }>();
  response.catch(() => undefined);
  const request = http.request(
    {
      host: "127.0.0.1",
      port,
      path: pathname,
      method: "POST",
      agent: false,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://127.0.0.1:${port}` },
    },
    (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => settle({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    },
  );
  request.on("error", fail);
  const half = Math.floor(body.length / 2);
  request.write(body.slice(0, half));
  return {
    response,
    finish: () => request.end(body.slice(half)),
  };
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("observability of the production server", () => {
  let server: ProdServer;
  let metricsPort: number;

  beforeAll(async () => {
    if (!existsSync(path.join(projectRoot, "build/server/index.js"))) {
      throw new Error("run `npx react-router build` first");
    }
    metricsPort = await freePort();
    server = await startProdServer({
      DATA_DIR: "memory://",
      LOG_LEVEL: "info",
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: TOKEN,
      SHUTDOWN_DELAY_MS: "4000",
      ...(process.env.TEST_PGLITE_TEMPLATE ? { TEST_PGLITE_TEMPLATE: process.env.TEST_PGLITE_TEMPLATE } : {}),
    });
  }, 150_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("/readyz answers 200 with each check and nothing secret; /healthz stays the liveness check", async () => {
    const ready = await httpRequest(server.port, "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(ready.body)).toEqual({
      status: "ready",
      checks: { database: true, migrations: true, workers: true, shuttingDown: false },
    });
    expect(ready.body).not.toMatch(/secret|token|postgres|memory:/i);
    expect((await httpRequest(server.port, "/healthz")).status).toBe(200);
  });

  it("/metrics is a 404 with no metrics for an anonymous or wrong-token request", async () => {
    for (const authorization of [
      undefined,
      "Bearer wrong-token-0123456789abcdefghij",
      `Bearer ${TOKEN}x`,
      TOKEN,
      `Basic ${TOKEN}`,
    ]) {
      const response = await scrape(server, authorization);
      expect({ authorization, status: response.status }).toEqual({ authorization, status: 404 });
      expect(response.body).not.toMatch(/clinica_|process_cpu|# HELP|# TYPE/);
    }
  });

  it("/metrics gives every gauge its series from the first scrape: 0 where nothing is waiting or counted yet", async () => {
    const response = await scrape(server, `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    const series = (name: string) =>
      response.body
        .split("\n")
        .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
        .map((line) => line.slice(0, line.lastIndexOf(" ")));
    // Nothing was sent yet: each kind the outbox delivers reads 0 rather than having no series.
    for (const name of ["clinica_outbox_pending", "clinica_outbox_oldest_pending_age_seconds"]) {
      expect(series(name).toSorted()).toEqual(
        ["dentalink-appointment", "email", "webpay_refund", "whatsapp"].map(
          (kind) => `${name}{kind="${kind}"}`,
        ),
      );
    }
    expect(response.body).toMatch(/^clinica_outbox_pending\{kind="email"\} 0$/m);
    expect(response.body).toMatch(/^clinica_sse_open_connections 0$/m);
    expect(series("clinica_reminders_queued_total").toSorted()).toEqual([
      'clinica_reminders_queued_total{channel="email"}',
      'clinica_reminders_queued_total{channel="whatsapp"}',
    ]);
    // Each background job has each of its four series (the outbox worker's first run is 2 s after start).
    for (const name of [
      "clinica_job_last_run_timestamp_seconds",
      "clinica_job_last_run_duration_seconds",
      "clinica_job_lag_seconds",
      "clinica_job_failures",
    ]) {
      expect(series(name)).toEqual(
        expect.arrayContaining([`${name}{job="outbox"}`, `${name}{job="reminders"}`]),
      );
    }
  });

  it("/metrics with the token lists the metrics, a page under its route id and never its URL", async () => {
    const slug = `articulo-${randomUUID()}`;
    const page = await httpRequest(server.port, `/blog/${slug}`);
    expect(page.status).toBe(404);
    await httpRequest(server.port, "/");

    const response = await scrape(server, `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toContain("text/plain");
    expect(response.headers["cache-control"]).toBe("no-store");
    for (const name of [
      "clinica_http_request_duration_seconds",
      "clinica_db_query_duration_seconds",
      "clinica_outbox_pending",
      "clinica_outbox_oldest_pending_age_seconds",
      "clinica_job_last_run_timestamp_seconds",
      "clinica_job_lag_seconds",
      "clinica_sse_open_connections",
      "clinica_rate_limit_refusals_total",
      "clinica_payments_total",
      "clinica_reminders_queued_total",
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(response.body).toContain(`# TYPE ${name} `);
    }
    expect(response.body).toMatch(
      /clinica_http_request_duration_seconds_count\{route="routes\/_public\/blog-article",method="GET",status_class="4xx"\} [1-9]/,
    );
    expect(response.body).toMatch(
      /clinica_http_request_duration_seconds_count\{route="routes\/_public\/home",method="GET",status_class="2xx"\} [1-9]/,
    );
    expect(response.body).not.toContain(slug);
    expect(response.body).not.toContain('route="/');
    expect(response.body).toMatch(/clinica_db_query_duration_seconds_count [1-9]/);
    expect(response.body).toMatch(
      /clinica_http_request_db_seconds_count\{route="routes\/_public\/blog-article"\} [1-9]/,
    );
    expect(response.body).toMatch(/clinica_job_last_run_timestamp_seconds\{job="reminders"\} \d/);
  });

  it("METRICS_PORT serves the scrape on 127.0.0.1 only, without the token, and nothing else", async () => {
    const scraped = await httpRequest(metricsPort, "/metrics");
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain("# TYPE clinica_http_request_duration_seconds histogram");
    expect((await httpRequest(metricsPort, "/")).status).toBe(404);
    // Not on another address of this host (none on a machine without one: nothing to try then).
    const { networkInterfaces } = await import("node:os");
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && address.family === "IPv4" && !address.internal)
      .map((address) => address!.address);
    const reached = await Promise.all(
      external.map(
        (host) =>
          new Promise<boolean>((resolve) => {
            const probe = http.get({ host, port: metricsPort, path: "/metrics", timeout: 2000 }, () =>
              resolve(true),
            );
            probe.on("error", () => resolve(false));
            probe.on("timeout", () => {
              probe.destroy();
              resolve(false);
            });
          }),
      ),
    );
    expect(reached.filter(Boolean)).toEqual([]);
    // The main port still wants the token.
    expect((await scrape(server)).status).toBe(404);
  });

  it("every response carries X-Request-Id: a safe incoming one is kept, an unsafe one replaced", async () => {
    const plain = await httpRequest(server.port, "/healthz");
    expect(plain.headers["x-request-id"]).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
    const kept = await httpRequest(server.port, "/healthz", {
      headers: { "x-request-id": "proxy-id-12345678" },
    });
    expect(kept.headers["x-request-id"]).toBe("proxy-id-12345678");
    const replaced = await httpRequest(server.port, "/healthz", {
      headers: { "x-request-id": "ana@example.com injected" },
    });
    expect(replaced.headers["x-request-id"]).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
    expect(replaced.headers["x-request-id"]).not.toContain("ana");
  });

  it("the request id is on the app's log lines about the request and on server.mjs's own line about it", async () => {
    const leadId = `lead-req-${randomUUID()}`;
    const lead = await httpForm(server.port, "/?index", leadForm(uniquePhone()), {
      origin: `http://127.0.0.1:${server.port}`,
      headers: { "x-request-id": leadId },
    });
    expect(lead.status).toBe(200);
    expect(lead.headers["x-request-id"]).toBe(leadId);
    await sleep(200);
    const captured = logLines(server).find((line) => line.msg === "lead captured");
    expect(captured?.reqId).toBe(leadId);

    // A Host header no URL can be built from is refused by server.mjs's bridge (400): its warning names the request.
    const refusedId = `refused-req-${randomUUID()}`;
    const refused = await httpRequest(server.port, "/", {
      headers: { host: "no valido", "x-request-id": refusedId },
    });
    expect(refused.status).toBe(400);
    expect(refused.headers["x-request-id"]).toBe(refusedId);
    // Written before the answer; the pipe from the server's process may bring it a little after.
    await expect
      .poll(() => logLines(server).filter((line) => line.reqId === refusedId).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    const lines = logLines(server).filter((line) => line.reqId === refusedId);
    expect(lines.map((line) => [line.level, line.msg])).toEqual([[40, "invalid Host header"]]);
  });

  it("the embedded database's VACUUM ANALYZE still runs, once the server listens, not before", async () => {
    // It ran before listening once, and every restart waited for it; /readyz never counted it (database, migrations,
    // workers, not draining). Now it starts with the listener, table by table between requests.
    const deadline = Date.now() + 60_000;
    while (!logLines(server).some(passDone)) {
      if (Date.now() > deadline) throw new Error(`no maintenance pass logged:\n${server.output()}`);
      await sleep(100);
    }
    const lines = logLines(server);
    const listening = lines.findIndex((line) => String(line.msg).startsWith("listening on"));
    const pass = lines.findIndex(passDone);
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(pass).toBeGreaterThan(listening);
    expect(lines[pass]).toMatchObject({ complete: true, tables: expect.any(Number) as number });
    expect(lines[pass]!.tables).toBeGreaterThan(20);
    const scraped = await scrape(server, `Bearer ${TOKEN}`);
    expect(scraped.body).toMatch(/clinica_job_last_run_timestamp_seconds\{job="database-maintenance"\} \d/);
  });

  it("on SIGTERM /readyz answers 503 at once while a slow request drains, then the process exits 0", async () => {
    const slow = slowPost(server.port, "/?index", new URLSearchParams(leadForm(uniquePhone())).toString());
    await sleep(300);
    server.child.kill("SIGTERM");
    await sleep(200);

    const draining = await httpRequest(server.port, "/readyz");
    expect(draining.status).toBe(503);
    expect(JSON.parse(draining.body)).toMatchObject({ status: "not_ready", checks: { shuttingDown: true } });
    // Liveness is not readiness: the process still answers.
    expect((await httpRequest(server.port, "/healthz")).status).toBe(200);

    slow.finish();
    const answer = await slow.response;
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("Recibimos tu solicitud");
    expect(await server.exited).toBe(0);
  }, 60_000);
});
