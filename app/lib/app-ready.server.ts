import { seedDemoAccounts, seedDemoAppointments } from "~/db/demo-accounts.server";
import { getDb } from "~/db/client.server";
import { startOutboxWorker } from "~/features/outbox/outbox-worker.server";
import { startRateLimitPurge } from "~/jobs/rate-limit-purge.server";
import { getAuth } from "./auth/auth.server";
import { env, isDemoMode } from "./env.server";

const holder = globalThis as typeof globalThis & { __clinicaReady?: Promise<void> };

/** Database migrated, auth ready, demo accounts present (demo mode), outbox worker running. Once per process. */
export function appReady(): Promise<void> {
  holder.__clinicaReady ??= (async () => {
    const current = env();
    const db = await getDb();
    const auth = await getAuth();
    if (isDemoMode(current)) {
      await seedDemoAccounts(db, auth);
      await seedDemoAppointments(db, auth);
    }
    if (current.NODE_ENV !== "test") {
      startOutboxWorker();
      startRateLimitPurge();
    }
  })().catch((error: unknown) => {
    holder.__clinicaReady = undefined;
    throw error;
  });
  return holder.__clinicaReady;
}
