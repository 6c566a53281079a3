import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { env, isDemoMode } from "~/lib/env.server";
import * as schema from "./schema";
import { seedReferenceData } from "./reference-data.server";
import { seedDemoData } from "./seed.server";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

interface Handle {
  db: Database;
  kind: "pglite" | "postgres";
  close: () => Promise<void>;
}

const migrationsFolder = path.resolve(process.cwd(), "app/db/migrations");

// Vite's dev server re-evaluates server modules on edits; keep one handle per process (STACK-NOTES 7).
const holder = globalThis as typeof globalThis & { __clinicaDb?: Promise<Handle> };

async function open(): Promise<Handle> {
  const current = env();
  if (current.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: current.DATABASE_URL, max: 10 });
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    await migratePg(drizzlePg(pool), { migrationsFolder });
    await seedReferenceData(db);
    if (isDemoMode(current)) await seedDemoData(db);
    return { db, kind: "postgres", close: () => pool.end() };
  }
  const memory = current.DATA_DIR === "memory://";
  const dataDir = memory ? undefined : path.resolve(current.DATA_DIR, "pglite");
  // PGlite does not create parent directories; without this its ready promise rejects (STACK-NOTES 7).
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, {
    postgresqlconf: ["shared_buffers = 16MB"],
    // The no-overlap constraint on appointments needs btree_gist (migration 0001).
    extensions: { btree_gist },
  });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  await seedReferenceData(db);
  if (isDemoMode(current)) await seedDemoData(db);
  return { db, kind: "pglite", close: () => client.close() };
}

function handle(): Promise<Handle> {
  holder.__clinicaDb ??= open().catch((error: unknown) => {
    holder.__clinicaDb = undefined;
    throw error;
  });
  return holder.__clinicaDb;
}

export async function getDb(): Promise<Database> {
  return (await handle()).db;
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

export async function closeDb() {
  const pending = holder.__clinicaDb;
  holder.__clinicaDb = undefined;
  if (pending) await (await pending).close();
}
