import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { databaseStatus, getDb } from "~/db/client.server";
import { lifecycle } from "~/lib/base/lifecycle.server";

/*
 * Readiness (issue 25): /readyz answers 200 only when this instance can serve — the database answers, every
 * migration in the build is applied, the workers started, and SIGTERM's drain has not begun. Liveness (/healthz)
 * stays what it was: the process answers. The body names each check and nothing else (no address, no error text).
 */

export interface Readiness {
  ready: boolean;
  checks: { database: boolean; migrations: boolean; workers: boolean; shuttingDown: boolean };
}

let expectedMigrations: number | undefined;

/** How many migrations this build ships (Drizzle's journal next to them). */
function migrationsInBuild(): number {
  expectedMigrations ??= (
    JSON.parse(readFileSync(path.resolve(process.cwd(), "app/db/migrations/meta/_journal.json"), "utf8")) as {
      entries: unknown[];
    }
  ).entries.length;
  return expectedMigrations;
}

async function migrationsApplied(): Promise<boolean> {
  try {
    const db = await getDb();
    const result = await db.execute<{ applied: number }>(
      sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
    );
    const applied = Number((result as unknown as { rows: Array<{ applied: number }> }).rows[0]?.applied ?? 0);
    return applied >= migrationsInBuild();
  } catch {
    return false;
  }
}

export async function readiness(): Promise<Readiness> {
  const { workersStarted, shuttingDown } = lifecycle();
  // Draining: say so at once, without waiting on the database the drain is about to close.
  if (shuttingDown) {
    return {
      ready: false,
      checks: { database: false, migrations: false, workers: workersStarted, shuttingDown },
    };
  }
  const database = (await databaseStatus()).ok;
  const migrations = database && (await migrationsApplied());
  const ready = database && migrations && workersStarted;
  return { ready, checks: { database, migrations, workers: workersStarted, shuttingDown } };
}
