import { createHash, timingSafeEqual } from "node:crypto";
import client from "prom-client";
import { jobLagSeconds, rateRuleLabel, statusClass } from "~/domain/observability";
import { currentRequestScope } from "~/lib/base/request-context.server";

/*
 * The process's Prometheus metrics (issue 25, docs/operations.md). One registry per process, kept on globalThis so
 * that a module loaded twice (dev reloads) does not register a metric twice. Counters are incremented where the
 * thing happens; gauges that describe stored state (the outbox backlog) are read at scrape time by collectors that
 * features register (features/operations).
 */

interface JobStats {
  everyMs: number;
  /** When its timer was started: a job that never ran yet is late from then on. */
  scheduledAt: number | null;
  lastStartedAt: number | null;
  lastFinishedAt: number | null;
  lastDurationSeconds: number | null;
  failures: number;
}

interface Metrics {
  registry: client.Registry;
  requestDuration: client.Histogram<"route" | "method" | "status_class">;
  dbQueryDuration: client.Histogram;
  requestDbTime: client.Histogram<"route">;
  sseOpen: client.Gauge;
  rateLimitRefusals: client.Counter<"rule">;
  payments: client.Counter<"outcome">;
  remindersQueued: client.Counter<"channel">;
  jobs: Map<string, JobStats>;
  /** The outbox's kinds (its worker declares them): each has a backlog series from the first scrape, 0 when empty. */
  outboxKinds: Set<string>;
}

const holder = globalThis as typeof globalThis & { __clinicaMetrics?: Metrics };

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const REMINDER_CHANNELS = ["whatsapp", "email"] as const;

function create(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const jobs = new Map<string, JobStats>();
  const jobGauge = (name: string, help: string, read: (job: JobStats, now: number) => number | null) =>
    new client.Gauge({
      name,
      help,
      labelNames: ["job"],
      registers: [registry],
      collect() {
        this.reset();
        const now = Date.now();
        // Every declared job has its series from the first scrape: 0 until there is something to tell (a job that
        // never finished a run has last run 0, duration 0; one whose timer has not started is not late yet).
        for (const [key, job] of jobs) this.set({ job: key }, read(job, now) ?? 0);
      },
    });
  jobGauge(
    "clinica_job_last_run_timestamp_seconds",
    "When each background job last finished a run (Unix time).",
    (job) => (job.lastFinishedAt === null ? null : job.lastFinishedAt / 1000),
  );
  jobGauge(
    "clinica_job_last_run_duration_seconds",
    "How long each background job's last run took.",
    (job) => job.lastDurationSeconds,
  );
  jobGauge(
    "clinica_job_lag_seconds",
    "How late each background job is: time since its last run beyond its period (0 = on schedule).",
    (job, now) => jobLagSeconds(job.lastFinishedAt ?? job.lastStartedAt ?? job.scheduledAt, job.everyMs, now),
  );
  jobGauge(
    "clinica_job_failures",
    "Runs of each background job that threw, since the process started.",
    (job) => job.failures,
  );
  const remindersQueued = new client.Counter({
    name: "clinica_reminders_queued_total",
    help: "Appointment reminders queued for delivery, by channel.",
    labelNames: ["channel"],
    registers: [registry],
  });
  // Both channels have a series from the first scrape, so that rate() sees their first reminder.
  for (const channel of REMINDER_CHANNELS) remindersQueued.inc({ channel }, 0);
  return {
    registry,
    jobs,
    outboxKinds: new Set(),
    remindersQueued,
    requestDuration: new client.Histogram({
      name: "clinica_http_request_duration_seconds",
      help: "HTTP request duration by React Router route id (not URL), method and status class.",
      labelNames: ["route", "method", "status_class"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    dbQueryDuration: new client.Histogram({
      name: "clinica_db_query_duration_seconds",
      help: "Database query duration (each query through the client, transactions' queries included).",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    requestDbTime: new client.Histogram({
      name: "clinica_http_request_db_seconds",
      help: "Database time per HTTP request (its queries' durations added up), by route id.",
      labelNames: ["route"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    sseOpen: new client.Gauge({
      name: "clinica_sse_open_connections",
      help: "Event streams (chat rooms, staff inbox) open on this instance.",
      registers: [registry],
    }),
    rateLimitRefusals: new client.Counter({
      name: "clinica_rate_limit_refusals_total",
      help: "Requests refused by a rate limit, by rule (the key without its subject).",
      labelNames: ["rule"],
      registers: [registry],
    }),
    payments: new client.Counter({
      name: "clinica_payments_total",
      help: "Webpay payments settled on this instance, by outcome.",
      labelNames: ["outcome"],
      registers: [registry],
    }),
  };
}

export function metrics(): Metrics {
  const all = (holder.__clinicaMetrics ??= create());
  // A registry made by an older copy of this module (a dev server's reload) has no outbox kinds yet.
  all.outboxKinds ??= new Set();
  return all;
}

/** One finished HTTP request (server.mjs, through the entry), with the database time its scope added up. */
export function observeRequest(
  routeId: string,
  method: string,
  status: number,
  seconds: number,
  dbSeconds = 0,
): void {
  const all = metrics();
  all.requestDuration.observe(
    { route: routeId, method: METHODS.has(method) ? method : "OTHER", status_class: statusClass(status) },
    seconds,
  );
  all.requestDbTime.observe({ route: routeId }, dbSeconds);
}

/** One database query; its time also adds to the request's, when it runs for one. */
export function observeDbQuery(seconds: number): void {
  metrics().dbQueryDuration.observe(seconds);
  const scope = currentRequestScope();
  if (scope) scope.dbSeconds += seconds;
}

export function sseOpened(): void {
  metrics().sseOpen.inc();
}

export function sseClosed(): void {
  metrics().sseOpen.dec();
}

export function countRateLimitRefusal(key: string): void {
  metrics().rateLimitRefusals.inc({ rule: rateRuleLabel(key) });
}

/** A payment attempt settled (its new status: authorized, rejected, aborted…), counted once it is committed. */
export function countPaymentSettled(status: string): void {
  metrics().payments.inc({ outcome: status });
}

export function countRemindersQueued(channel: (typeof REMINDER_CHANNELS)[number], count = 1): void {
  if (count > 0) metrics().remindersQueued.inc({ channel }, count);
}

/** The outbox worker declares the kinds it delivers: their backlog gauges read 0 until something waits. */
export function declareOutboxKinds(kinds: Iterable<string>): void {
  const known = metrics().outboxKinds;
  for (const kind of kinds) known.add(kind);
}

/** A background job (jobs/interval-job.server.ts) declares itself, with its period, so that its lag can be told. */
export function registerJob(key: string, everyMs: number): void {
  const jobs = metrics().jobs;
  const known = jobs.get(key);
  if (known) known.everyMs = everyMs;
  else
    jobs.set(key, {
      everyMs,
      scheduledAt: null,
      lastStartedAt: null,
      lastFinishedAt: null,
      lastDurationSeconds: null,
      failures: 0,
    });
}

/** The job's timer started (IntervalJob.start). */
export function jobScheduled(key: string, at = Date.now()): void {
  const job = metrics().jobs.get(key);
  if (job) job.scheduledAt = at;
}

export function jobRunStarted(key: string, at = Date.now()): void {
  const job = metrics().jobs.get(key);
  if (job) job.lastStartedAt = at;
}

export function jobRunFinished(key: string, failed: boolean, at = Date.now()): void {
  const job = metrics().jobs.get(key);
  if (!job) return;
  job.lastFinishedAt = at;
  if (job.lastStartedAt !== null) job.lastDurationSeconds = (at - job.lastStartedAt) / 1000;
  if (failed) job.failures += 1;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether `authorization` is `Bearer <token>`, compared in constant time (digests: equal lengths). */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/** The registry's text exposition. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
