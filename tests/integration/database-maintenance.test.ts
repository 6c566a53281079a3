import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { getDb, maintainEmbeddedDatabase } from "~/db/client.server";
import { maintainDatabaseOnce } from "~/jobs/database-maintenance.server";

// PGlite has no autovacuum. Opening the database no longer runs VACUUM ANALYZE (a restart waited for it); the
// database-maintenance job does, once the server listens and hourly, one table at a time so that requests go
// between tables (tests/integration/observability.test.ts: it runs after "listening"). On PostgreSQL, nothing.

const embedded = !process.env.DATABASE_URL;

interface TableStats {
  schemaname: string;
  relname: string;
  vacuum_count: number;
  analyze_count: number;
}

async function userTableStats(): Promise<TableStats[]> {
  const db = await getDb();
  const result = await db.execute(
    sql`select schemaname, relname, vacuum_count::int, analyze_count::int from pg_stat_user_tables`,
  );
  return (result as unknown as { rows: TableStats[] }).rows;
}

async function catalogVacuums(): Promise<number> {
  const db = await getDb();
  const result = await db.execute(
    sql`select coalesce(sum(vacuum_count), 0)::int as n from pg_stat_sys_tables where schemaname = 'pg_catalog'`,
  );
  return (result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
}

describe.runIf(embedded)("the embedded database's maintenance", () => {
  it("is not run by opening the database; a pass vacuums and analyses every app table, the catalogs when asked", async () => {
    const opened = await userTableStats();
    expect(opened.length).toBeGreaterThan(20);
    expect(opened.filter((table) => table.vacuum_count > 0 || table.analyze_count > 0)).toEqual([]);

    const pass = await maintainEmbeddedDatabase({ catalogs: false });
    expect(pass).toEqual({ tables: opened.length, complete: true });
    const after = await userTableStats();
    expect(after.filter((table) => table.vacuum_count === 0 || table.analyze_count === 0)).toEqual([]);
    expect(after.map((table) => table.relname)).toEqual(
      expect.arrayContaining(["leads", "__drizzle_migrations"]),
    );
    expect(await catalogVacuums()).toBe(0);

    const withCatalogs = await maintainEmbeddedDatabase({ catalogs: true });
    expect(withCatalogs!.tables).toBeGreaterThan(opened.length);
    expect(await catalogVacuums()).toBeGreaterThan(0);
  });

  it("answers a query sent during a pass before the pass ends: one table at a time", async () => {
    const db = await getDb();
    const order: string[] = [];
    let asked = 0;
    let query: Promise<unknown> | undefined;
    await maintainEmbeddedDatabase({
      catalogs: false,
      // Asked before each table: after the first one, a request comes in.
      shouldStop: () => {
        asked += 1;
        if (asked === 2) query = db.execute(sql`select 1`).then(() => order.push("query"));
        return false;
      },
    });
    order.push("pass");
    await query;
    expect(asked).toBeGreaterThan(2);
    expect(order).toEqual(["query", "pass"]);
  });

  it("stops between tables once asked to (shutdown)", async () => {
    let asked = 0;
    const pass = await maintainEmbeddedDatabase({ catalogs: false, shouldStop: () => ++asked > 1 });
    expect(pass).toEqual({ tables: 1, complete: false });
  });

  it("the job's pass at start takes the app's tables, the hourly ones the catalogs too", async () => {
    const apps = (await userTableStats()).length;
    const first = await maintainDatabaseOnce();
    const second = await maintainDatabaseOnce();
    expect(first).toEqual({ tables: apps, complete: true });
    expect(second!.tables).toBeGreaterThan(apps);
  });
});

describe.runIf(!embedded)("maintenance on PostgreSQL", () => {
  it("is autovacuum's: the pass does nothing", async () => {
    expect(await maintainEmbeddedDatabase({ catalogs: true })).toBeNull();
    expect(await maintainDatabaseOnce()).toBeNull();
  });
});

describe.runIf(!embedded)("the PostgreSQL pool when the server ends its connections", () => {
  it("attack: a restart or pg_terminate_backend of the pool's idle connections does not end the process; queries go on", async () => {
    const db = await getDb();
    // Several idle connections in the pool: queries at once make the pool open more than one.
    await Promise.all(Array.from({ length: 4 }, () => db.execute(sql`select pg_sleep(0.05)`)));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    // This file's own database (tests/setup/postgres-per-file.ts): only its app pool is connected to it.
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const ended = await admin.query<{ n: number }>(
        `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid()) t`,
      );
      expect(ended.rows[0]!.n).toBeGreaterThanOrEqual(2);
      // Each ended backend sends its connection a FATAL message before it exits: once none is left, every message
      // is on its way to the pool.
      await vi.waitFor(
        async () => {
          const left = await admin.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
          );
          expect(left.rows[0]!.n).toBe(0);
        },
        { timeout: 10_000 },
      );
      // A query may still meet a connection whose FATAL it has not read yet (that one request fails, as with any
      // restart); the pool drops such connections and the next query opens a new one.
      await vi.waitFor(
        async () => {
          const after = await db.execute(sql`select 1 as one`);
          expect((after as unknown as { rows: Array<{ one: number }> }).rows[0]!.one).toBe(1);
        },
        { timeout: 10_000 },
      );
      await Promise.all(Array.from({ length: 4 }, () => db.execute(sql`select 1`)));
      expect(uncaught).toEqual([]);
    } finally {
      await admin.end();
      process.off("uncaughtException", onUncaught);
    }
  });
});
