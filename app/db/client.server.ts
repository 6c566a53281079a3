import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { env, isDemoMode } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { dumpPglite, embeddedDataDir, PGLITE_EXTENSIONS } from "./backup.server";
import { withInstanceParsers } from "./pglite-parsers.server";
import * as schema from "./schema";
import { seedReferenceData } from "./reference-data.server";
import { seedDemoData } from "./seed.server";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

interface Handle {
  db: Database;
  kind: "pglite" | "postgres";
  close: () => Promise<void>;
  /** LISTEN on a channel: PostgreSQL on a dedicated connection, PGlite in-process. Returns the unlisten. */
  listen: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;
  /** The embedded database's data directory as a gzipped tar, taken while it serves (ADR 046); PGlite only. */
  dump?: () => Promise<Uint8Array>;
  /** VACUUM ANALYZE, one table at a time (maintainEmbeddedDatabase); PGlite only. */
  maintain?: (options: MaintenanceOptions) => Promise<MaintenanceResult>;
}

export interface MaintenanceOptions {
  /** The system catalogs too, not only the app's tables (they change only with migrations). */
  catalogs: boolean;
  /** Asked before each table: true ends the pass there (shutdown). */
  shouldStop?: () => boolean;
}

export interface MaintenanceResult {
  /** Tables vacuumed and analysed. */
  tables: number;
  /** False when shouldStop ended the pass early. */
  complete: boolean;
}

const migrationsFolder = path.resolve(process.cwd(), "app/db/migrations");

// Vite's dev server re-evaluates server modules on edits; keep one handle per process (STACK-NOTES 7).
const holder = globalThis as typeof globalThis & {
  __clinicaDb?: Promise<Handle>;
  __clinicaDbClosed?: boolean;
};

/** Thrown by getDb() once closeDb() ran: a late job or request must fail, not silently open a second handle. */
export class DatabaseClosedError extends Error {
  constructor() {
    super("the database was closed for shutdown and cannot be reopened in this process");
    this.name = "DatabaseClosedError";
  }
}

async function open(): Promise<Handle> {
  const current = env();
  if (current.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: current.DATABASE_URL, max: 10 });
    // An idle pooled connection that the server ends (a restart, a failover, pg_terminate_backend) makes the pool emit
    // "error"; with no listener Node throws it and the whole process exits. The pool drops that connection by itself
    // and the next query opens a new one: log it and go on.
    pool.on("error", (error) =>
      logger.warn({ err: error }, "an idle database connection was closed by the server"),
    );
    // Instances starting together would run the same migrations at once (CREATE TABLE fails in the second): one
    // session-level advisory lock makes them take turns; the later ones find nothing left to do.
    const connection = await pool.connect();
    try {
      await connection.query("select pg_advisory_lock(hashtext('clinica:migrations'))");
      const locked = drizzlePg(connection, { schema }) as unknown as Database;
      await migratePg(drizzlePg(connection), { migrationsFolder });
      await seedReferenceData(locked);
      if (isDemoMode(current)) await seedDemoData(locked);
    } finally {
      await connection.query("select pg_advisory_unlock(hashtext('clinica:migrations'))").catch(() => {});
      connection.release();
    }
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    const listeners: pg.Client[] = [];
    return {
      db,
      kind: "postgres",
      close: async () => {
        await Promise.all(listeners.map((client) => client.end().catch(() => {})));
        await pool.end();
      },
      listen: async (channel, onPayload) => {
        // LISTEN holds its connection for good: a client of its own, outside the pool.
        const client = new pg.Client({ connectionString: current.DATABASE_URL });
        await client.connect();
        client.on("notification", (message) => {
          if (message.channel === channel) onPayload(message.payload ?? "");
        });
        client.on("error", (error) => logger.error({ err: error, channel }, "LISTEN connection failed"));
        await client.query(`listen "${channel.replace(/"/g, "")}"`);
        listeners.push(client);
        return async () => {
          listeners.splice(listeners.indexOf(client), 1);
          await client.end().catch(() => {});
        };
      },
    };
  }
  const memory = current.DATA_DIR === "memory://";
  const dataDir = memory ? undefined : embeddedDataDir(current.DATA_DIR);
  // PGlite does not create parent directories; without this its ready promise rejects (STACK-NOTES 7).
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // An in-memory database may start from a migrated dump instead of an empty cluster: creating one runs initdb, which
  // costs PGlite seconds, and the integration tests open one per test file (tests/setup/pglite-template.ts). The
  // migrations below still run and find nothing left to apply unless the dump is older than the code.
  const template = memory ? current.TEST_PGLITE_TEMPLATE : undefined;
  const client = await PGlite.create({
    dataDir,
    ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}),
    postgresqlconf: ["shared_buffers = 16MB"],
    // The no-overlap constraint on appointments needs btree_gist (migration 0001); the lead list needs pg_trgm,
    // unaccent and btree_gin (migration 0013). PGlite only creates an extension it was given here (STACK-NOTES 15).
    extensions: PGLITE_EXTENSIONS,
  });
  // Drizzle's per-statement parsers, given to the instance once (ADR 051).
  withInstanceParsers(client);
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  await seedReferenceData(db);
  if (isDemoMode(current)) await seedDemoData(db);
  // No VACUUM here: that is the database-maintenance job's (maintainEmbeddedDatabase below), which starts once the
  // server is listening, so that a restart does not wait for it.
  return {
    db,
    kind: "pglite",
    close: () => client.close(),
    listen: async (channel, onPayload) => {
      const unlisten = await client.listen(channel, onPayload);
      return () => unlisten();
    },
    dump: () => dumpPglite(client),
    maintain: (options) => maintainPglite(client, options),
  };
}

/** One turn of the event loop: the requests that arrived meanwhile get the connection and the CPU first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/*
 * PGlite runs PostgreSQL in single-user mode: no autovacuum, so no table is ever analysed and the planner guesses
 * (e.g. a hash join over every user where an index lookup would do), dead row versions are never reclaimed, and the
 * visibility map is never set, so an index-only scan still reads the table for every row (a deep page of the lead
 * panel: 46 ms before VACUUM, 5 ms after, ADR 027). This is that autovacuum: VACUUM ANALYZE table by table, because
 * PGlite's one connection runs a statement on the event loop's thread; one VACUUM of the whole database would hold
 * every request for its length (hundreds of milliseconds with the demo data, more at 100,000 leads); one table holds
 * them for that table's (the largest demo table: tens of milliseconds).
 */
async function maintainPglite(client: PGlite, options: MaintenanceOptions): Promise<MaintenanceResult> {
  // Ordinary tables and materialised views (a table's TOAST table is vacuumed with it); the app's before the system
  // catalogs, the smallest first, so that a pass begun as the server starts answering holds its first requests
  // for a few milliseconds at most.
  const { rows } = await client.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'm') and c.relpersistence <> 't'
        and n.nspname <> 'pg_toast' and ($1 or n.nspname not in ('pg_catalog', 'information_schema'))
      order by n.nspname in ('pg_catalog', 'information_schema'), c.relpages, 1`,
    [options.catalogs],
  );
  let tables = 0;
  for (const { name } of rows) {
    if (options.shouldStop?.()) return { tables, complete: false };
    await nextTurn();
    await client.exec(`vacuum (analyze) ${name}`);
    tables += 1;
  }
  return { tables, complete: true };
}

function handle(): Promise<Handle> {
  if (holder.__clinicaDbClosed) return Promise.reject(new DatabaseClosedError());
  holder.__clinicaDb ??= open().catch((error: unknown) => {
    holder.__clinicaDb = undefined;
    throw error;
  });
  return holder.__clinicaDb;
}

export async function getDb(): Promise<Database> {
  return (await handle()).db;
}

/** LISTEN/NOTIFY (DESIGN decision 17): wakes other instances on PostgreSQL, this one on PGlite. */
export async function listenToChannel(channel: string, onPayload: (payload: string) => void) {
  return (await handle()).listen(channel, onPayload);
}

/**
 * The embedded database's VACUUM ANALYZE (PGlite has no autovacuum): one pass over its tables, one at a time, each
 * after a turn of the event loop so that requests go between them. Null on PostgreSQL, whose autovacuum does it.
 */
export async function maintainEmbeddedDatabase(
  options: MaintenanceOptions,
): Promise<MaintenanceResult | null> {
  const { maintain } = await handle();
  return maintain ? maintain(options) : null;
}

/**
 * A backup of the embedded database taken by this process, which holds it (ADR 046): PGlite's data directory as a
 * gzipped tar. Rejects on PostgreSQL, whose backups are pg_dump's.
 */
export async function dumpEmbeddedDatabase(): Promise<Uint8Array> {
  const { dump } = await handle();
  if (!dump) throw new Error("the database is PostgreSQL: back it up with pg_dump");
  return dump();
}

export async function databaseStatus(): Promise<{ ok: boolean; kind?: string; latencyMs?: number }> {
  try {
    const { db, kind } = await handle();
    const started = performance.now();
    await db.execute(sql`select 1`);
    return { ok: true, kind, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch {
    return { ok: false };
  }
}

/**
 * Closes the database for good: every later getDb() rejects with DatabaseClosedError. Queries already running
 * finish first (PGlite and pg.Pool both drain before they close). Safe to call more than once.
 */
export async function closeDb() {
  holder.__clinicaDbClosed = true;
  const pending = holder.__clinicaDb;
  holder.__clinicaDb = undefined;
  // An open that failed has nothing to close; its error was already reported to whoever awaited it.
  const opened = await pending?.catch(() => undefined);
  await opened?.close();
}
