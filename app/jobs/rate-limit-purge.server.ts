import { getDb } from "~/db/client.server";
import { logger } from "~/lib/logger.server";
import { purgeExpiredRates } from "~/lib/rate-limit.server";

const PURGE_EVERY_MS = 60 * 60_000;

const state = globalThis as typeof globalThis & { __clinicaRatePurge?: NodeJS.Timeout };

/** Deletes dead rate-limit windows once at start and then hourly. Idempotent, so every instance may run it. */
export async function purgeRateLimitsOnce(now = new Date()): Promise<number> {
  const purged = await purgeExpiredRates(await getDb(), now);
  if (purged > 0) logger.info({ purged }, "expired rate-limit windows purged");
  return purged;
}

export function startRateLimitPurge() {
  if (state.__clinicaRatePurge) return;
  const run = () =>
    void purgeRateLimitsOnce().catch((error: unknown) => logger.error({ err: error }, "rate-limit purge failed"));
  run();
  state.__clinicaRatePurge = setInterval(run, PURGE_EVERY_MS);
  state.__clinicaRatePurge.unref();
}

export function stopRateLimitPurge() {
  if (state.__clinicaRatePurge) clearInterval(state.__clinicaRatePurge);
  state.__clinicaRatePurge = undefined;
}
