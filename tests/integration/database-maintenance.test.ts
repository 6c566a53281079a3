import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
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
