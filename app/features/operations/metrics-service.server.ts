import client from "prom-client";
import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { env } from "~/lib/base/env.server";
import { bearerMatches, metrics, metricsText } from "~/lib/metrics.server";

/*
 * GET /metrics (issue 25): Prometheus text, only for a scraper that presents METRICS_TOKEN as a bearer token; anyone
 * else (and everyone, while the token is unset) gets the same 404 as any unknown page. The outbox figures are read
 * from its table at scrape time (one grouped query on the pending rows' index); nothing here touches delivery.
 */

const holder = globalThis as typeof globalThis & { __clinicaOutboxGauges?: client.Gauge[] };

function registerOutboxGauges(): void {
  if (holder.__clinicaOutboxGauges) return;
  const { registry, outboxKinds } = metrics();
  let last: Promise<Array<{ kind: string; pending: number; oldest: number }>> | undefined;
  // Both gauges come from one query per scrape.
  const read = () =>
    (last ??= (async () => {
      try {
        const db = await getDb();
        return await db
          .select({
            kind: outbox.kind,
            pending: sql<number>`count(*)::int`,
            oldest: sql<number>`extract(epoch from (now() - min(${outbox.createdAt})))::float8`,
          })
          .from(outbox)
          .where(sql`${outbox.status} = 'pending'`)
          .groupBy(outbox.kind);
      } finally {
        setImmediate(() => (last = undefined));
      }
    })());
  // Each kind the worker delivers reads 0 when nothing of it waits (a series from the first scrape, so that an
  // alert on it sees a value rather than nothing); a kind found waiting that it does not know is shown too.
  const pending = new client.Gauge({
    name: "clinica_outbox_pending",
    help: "Outbox items waiting for delivery, by kind (0 for a kind with none).",
    labelNames: ["kind"],
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const kind of outboxKinds) this.set({ kind }, 0);
      for (const row of rows) this.set({ kind: row.kind }, Number(row.pending));
    },
  });
  const oldest = new client.Gauge({
    name: "clinica_outbox_oldest_pending_age_seconds",
    help: "Age of the oldest outbox item still waiting, by kind (0 for a kind with none).",
    labelNames: ["kind"],
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const kind of outboxKinds) this.set({ kind }, 0);
      for (const row of rows) this.set({ kind: row.kind }, Math.max(0, Number(row.oldest)));
    },
  });
  holder.__clinicaOutboxGauges = [pending, oldest];
}

const NOT_FOUND = () =>
  new Response("No encontramos esta página.", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/** The scrape itself: for /metrics once the token matched, and for METRICS_PORT's loopback listener (server.mjs). */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  registerOutboxGauges();
  return metricsText();
}

export async function metricsResponse(request: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token || !bearerMatches(request.headers.get("authorization"), token)) return NOT_FOUND();
  const { contentType, body } = await scrapeMetrics();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
