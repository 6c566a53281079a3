import { describe, expect, it } from "vitest";
import { parseEnv } from "~/lib/base/env.server";
import {
  bearerMatches,
  countRateLimitRefusal,
  jobRunFinished,
  jobRunStarted,
  jobScheduled,
  metricsText,
  registerJob,
} from "./metrics.server";

const TOKEN = "metrics-token-0123456789abcdef";

describe("bearerMatches", () => {
  it("accepts exactly `Bearer <token>`", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
  });
  it("refuses a missing, different, longer, shorter or non-bearer credential", () => {
    expect(bearerMatches(null, TOKEN)).toBe(false);
    expect(bearerMatches("", TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN} extra`, TOKEN)).toBe(false);
  });
});

describe("the registry", () => {
  it("counts a rate-limit refusal under its rule, never its subject", async () => {
    countRateLimitRefusal("reset:account:ana.perez@example.com");
    const { body } = await metricsText();
    expect(body).toMatch(/clinica_rate_limit_refusals_total\{rule="reset:account"\} [1-9]/);
    expect(body).not.toContain("ana.perez");
  });

  it("tells a job's last run, duration and lag", async () => {
    registerJob("unit-test-job", 60_000);
    const started = Date.now() - 200_000;
    jobRunStarted("unit-test-job", started);
    jobRunFinished("unit-test-job", true, started + 500);
    const { body } = await metricsText();
    expect(body).toContain(
      `clinica_job_last_run_timestamp_seconds{job="unit-test-job"} ${(started + 500) / 1000}`,
    );
    expect(body).toContain('clinica_job_last_run_duration_seconds{job="unit-test-job"} 0.5');
    expect(body).toMatch(/clinica_job_lag_seconds\{job="unit-test-job"\} 1[34]\d\.\d+/);
    expect(body).toContain('clinica_job_failures{job="unit-test-job"} 1');
  });

  it("counts a started job that never ran as late from its start, and reads 0 for one never started", async () => {
    registerJob("unit-never-started", 60_000);
    registerJob("unit-started-idle", 60_000);
    const scheduled = Date.now() - 90_000;
    jobScheduled("unit-started-idle", scheduled);
    const { body } = await metricsText();
    const scraped = Date.now();
    // Every declared job has each series from the first scrape (an alert sees 0, not nothing).
    for (const name of [
      "clinica_job_lag_seconds",
      "clinica_job_last_run_timestamp_seconds",
      "clinica_job_last_run_duration_seconds",
      "clinica_job_failures",
    ]) {
      expect(body).toContain(`${name}{job="unit-never-started"} 0\n`);
    }
    // 30 s late when it was scheduled (90 s ago, every 60 s), plus however long the scrape took on a busy machine.
    const lag = Number(/clinica_job_lag_seconds\{job="unit-started-idle"\} (\S+)/.exec(body)?.[1]);
    expect(lag).toBeGreaterThanOrEqual(30);
    expect(lag).toBeLessThanOrEqual((scraped - scheduled - 60_000) / 1000);
  });

  it("reports the open event streams and both reminder channels as 0 before anything happened", async () => {
    const { body } = await metricsText();
    expect(body).toContain("clinica_sse_open_connections 0\n");
    expect(body).toContain('clinica_reminders_queued_total{channel="whatsapp"} 0\n');
    expect(body).toContain('clinica_reminders_queued_total{channel="email"} 0\n');
  });
});

describe("METRICS_TOKEN, METRICS_PORT and SHUTDOWN_DELAY_MS", () => {
  it("are optional, and refused in Spanish when unusable", () => {
    const base = { AUTH_SECRET: "0123456789abcdef0123456789abcdef" };
    expect(parseEnv(base)).toMatchObject({ SHUTDOWN_DELAY_MS: 0 });
    expect(parseEnv(base).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv({ ...base, METRICS_TOKEN: TOKEN, SHUTDOWN_DELAY_MS: "5000" })).toMatchObject({
      METRICS_TOKEN: TOKEN,
      SHUTDOWN_DELAY_MS: 5000,
    });
    expect(() => parseEnv({ ...base, METRICS_TOKEN: "corto" })).toThrow(/al menos 24 caracteres/);
    expect(() => parseEnv({ ...base, METRICS_TOKEN: "con espacios 0123456789abcdef" })).toThrow(
      /sin espacios/,
    );
    expect(() => parseEnv({ ...base, SHUTDOWN_DELAY_MS: "-1" })).toThrow(/negativo/);
    expect(() => parseEnv({ ...base, SHUTDOWN_DELAY_MS: "120000" })).toThrow(/60000/);
    expect(parseEnv({ ...base, METRICS_PORT: "9464" }).METRICS_PORT).toBe(9464);
    expect(() => parseEnv({ ...base, METRICS_PORT: "70000" })).toThrow(/entre 1 y 65535/);
  });
});
