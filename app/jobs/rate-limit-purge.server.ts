import { getDb } from "~/db/client.server";
import { purgeExpiredStepUps } from "~/lib/auth/sign-in-step-up.server";
import { logger } from "~/lib/logger.server";
import { purgeExpiredRates } from "~/lib/rate-limit.server";

const PURGE_EVERY_MS = 60 * 60_000;

const state = globalThis as typeof globalThis & {
  __clinicaRatePurge?: { timer: NodeJS.Timeout; run?: Promise<void> };
};

/**
 * Deletes dead rate-limit windows (and expired sign-in step-up codes) once at start and then hourly. Idempotent,
 * so every instance may run it.
 */
export async function purgeRateLimitsOnce(now = new Date()): Promise<number> {
  const db = await getDb();
  const purged = await purgeExpiredRates(db, now);
  if (purged > 0) logger.info({ purged }, "expired rate-limit windows purged");
  await purgeExpiredStepUps(db, now);
  return purged;
}

export function startRateLimitPurge() {
  if (state.__clinicaRatePurge) return;
  const run = () => {
    if (job.run) return;
    job.run = purgeRateLimitsOnce()
      .then(
        () => undefined,
        (error: unknown) => logger.error({ err: error }, "rate-limit purge failed"),
      )
      .finally(() => {
        job.run = undefined;
      });
  };
  const job: { timer: NodeJS.Timeout; run?: Promise<void> } = { timer: setInterval(run, PURGE_EVERY_MS) };
  job.timer.unref();
  state.__clinicaRatePurge = job;
  run();
}

/** Stops the hourly purge and waits for a purge in progress (one DELETE), so that it ends before the database closes. */
export async function stopRateLimitPurge(): Promise<void> {
  const job = state.__clinicaRatePurge;
  if (!job) return;
  clearInterval(job.timer);
  state.__clinicaRatePurge = undefined;
  await job.run;
}
