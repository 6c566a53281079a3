import { getDb } from "~/db/client.server";
import { purgeExpiredStepUps } from "~/lib/auth/sign-in-step-up.server";
import { logger } from "~/lib/base/logger.server";
import { purgeExpiredRates } from "~/lib/rate-limit.server";
import { intervalJob } from "./interval-job.server";

const PURGE_EVERY_MS = 60 * 60_000;

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

const purgeJob = intervalJob({
  key: "rate-limit-purge",
  everyMs: PURGE_EVERY_MS,
  runAtStart: true,
  whileRunning: "skip",
  failureMessage: "rate-limit purge failed",
  run: () => purgeRateLimitsOnce(),
});

export function startRateLimitPurge() {
  purgeJob.start();
}

/** Stops the hourly purge and waits for a purge in progress (one DELETE), so that it ends before the database closes. */
export async function stopRateLimitPurge(): Promise<void> {
  await purgeJob.stop();
}
