import { maintainEmbeddedDatabase } from "~/db/client.server";
import { logger } from "~/lib/base/logger.server";
import { intervalJob } from "./interval-job.server";

const MAINTAIN_EVERY_MS = 60 * 60_000;

const holder = globalThis as typeof globalThis & { __clinicaMaintenancePasses?: number };

/**
 * The embedded database's VACUUM ANALYZE (PGlite has no autovacuum; ADR 027): a pass once the server is listening and
 * then hourly, one table at a time so that requests go between tables. It is not part of readiness and nothing waits
 * for it: a restart's planner statistics and visibility map are the last pass's until it is done. The first pass
 * takes the app's tables; the hourly ones the system catalogs too (only migrations change those). On PostgreSQL it
 * does nothing: autovacuum does it there.
 */
export async function maintainDatabaseOnce(job: { readonly stopping: boolean } = { stopping: false }) {
  const passes = (holder.__clinicaMaintenancePasses ?? 0) + 1;
  holder.__clinicaMaintenancePasses = passes;
  const started = performance.now();
  const result = await maintainEmbeddedDatabase({ catalogs: passes > 1, shouldStop: () => job.stopping });
  if (result) {
    const ms = Math.round(performance.now() - started);
    logger.info(
      { ...result, ms },
      result.complete ? "database maintenance pass done" : "database maintenance pass stopped",
    );
  }
  return result;
}

const maintenanceJob = intervalJob({
  key: "database-maintenance",
  everyMs: MAINTAIN_EVERY_MS,
  runAtStart: true,
  whileRunning: "skip",
  failureMessage: "database maintenance failed",
  run: (job) => maintainDatabaseOnce(job),
});

export function startDatabaseMaintenance() {
  maintenanceJob.start();
}

/** Stops the hourly pass and waits for the table in progress: a pass ends between tables once stopping. */
export async function stopDatabaseMaintenance(): Promise<void> {
  await maintenanceJob.stop();
}
