import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { findSessionByToken } from "~/db/session-lookup.server";
import { openRequestScope, runInRequestScope } from "~/lib/base/request-context.server";
import { instrumentDatabase } from "~/lib/db-metrics.server";
import { metrics, metricsText } from "~/lib/metrics.server";
import { consumeRate } from "~/lib/rate-limit.server";

// Issue 25: the counters that are fed from inside the app, on the real database driver.

afterAll(async () => {
  await closeDb();
});

async function queryCount(): Promise<number> {
  const histogram = await metrics().dbQueryDuration.get();
  return (
    histogram.values.find((value) => value.metricName === "clinica_db_query_duration_seconds_count")?.value ??
    0
  );
}

describe("database query time", () => {
  it("times each query, transactions' included, and adds it to the request's scope", async () => {
    const db = await getDb();
    instrumentDatabase(db);
    instrumentDatabase(db); // once only: a second call does not time twice
    const before = await queryCount();
    const scope = openRequestScope("scope-test-0001");
    await runInRequestScope(scope, async () => {
      await db.execute(sql`select pg_sleep(0.02)`);
      await db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await tx.execute(sql`select 2`);
      });
    });
    // Plus the transaction's begin and commit, which go through the same path.
    expect((await queryCount()) - before).toBeGreaterThanOrEqual(3);
    expect(scope.dbSeconds).toBeGreaterThanOrEqual(0.02);

    const outside = openRequestScope("scope-test-0002");
    await db.execute(sql`select 1`);
    expect(outside.dbSeconds).toBe(0);
  });

  it("times the session look-up, which runs as a prepared statement on the embedded database", async () => {
    const db = await getDb();
    instrumentDatabase(db);
    await findSessionByToken(db, "warm-up-token-that-matches-no-session");
    const before = await queryCount();
    const scope = openRequestScope("scope-test-0003");
    await runInRequestScope(scope, () => findSessionByToken(db, "token-that-matches-no-session"));
    expect((await queryCount()) - before).toBe(1);
    expect(scope.dbSeconds).toBeGreaterThan(0);
  });
});

describe("rate-limit refusals", () => {
  it("are counted under the rule, without the subject", async () => {
    const db = await getDb();
    const subject = `ana-${randomUUID()}@example.com`;
    const rule = { window: 60, max: 1 };
    expect((await consumeRate(db, `unit-rule:account:${subject}`, rule)).allowed).toBe(true);
    expect((await consumeRate(db, `unit-rule:account:${subject}`, rule)).allowed).toBe(false);
    const { body } = await metricsText();
    expect(body).toContain('clinica_rate_limit_refusals_total{rule="unit-rule:account"} 1');
    expect(body).not.toContain(subject);
  });
});
