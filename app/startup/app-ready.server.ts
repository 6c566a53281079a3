import { closeDb, getDb } from "~/db/client.server";
import { demoLeadSubmissionIds } from "~/db/seed.server";
import { assignSeededLeads } from "~/features/crm/lead-assignment-service.server";
import { getAuth } from "~/features/auth/auth-instance.server";
import { assertWhatsAppTimingFits } from "~/features/messaging/whatsapp-settings.server";
import { publishBackupControl, withdrawBackupControl } from "~/features/backups/backup-service.server";
import { startBackupJob, stopBackupJob } from "~/jobs/backups.server";
import { startDatabaseMaintenance, stopDatabaseMaintenance } from "~/jobs/database-maintenance.server";
import { startDataExportJob, stopDataExportJob } from "~/jobs/data-exports.server";
import { startOutboxWorker, stopOutboxWorker } from "~/jobs/outbox-worker.server";
import { startPaymentReconciliation, stopPaymentReconciliation } from "~/jobs/payments-reconciliation.server";
import { startPrivacyDigest, stopPrivacyDigest } from "~/jobs/privacy-digest.server";
import { startRateLimitPurge, stopRateLimitPurge } from "~/jobs/rate-limit-purge.server";
import { startReminderJob, stopReminderJob } from "~/jobs/reminders.server";
import { startRetentionJob, stopRetentionJob } from "~/jobs/retention.server";
import { startWaitlistJob, stopWaitlistJob } from "~/jobs/waitlist.server";
import { env, isDemoMode, seedsDemoStaffData } from "~/lib/base/env.server";
import { lifecycle, markShuttingDown, markWorkersStarted } from "~/lib/base/lifecycle.server";
import { instrumentDatabase } from "~/lib/db-metrics.server";
import { seedDemoAccounts, seedDemoAppointments } from "./demo-accounts.server";
import { seedDemoStaffData } from "./demo-staff-seed.server";

/*
 * The composition root (ADR 011): the one place allowed to import every layer, so that the process's start and
 * stop (migrations, auth, demo data, jobs) are wired here and nowhere below.
 */

const holder = globalThis as typeof globalThis & {
  __clinicaReady?: Promise<void>;
  __clinicaServing?: boolean;
};

/** Database migrated, auth ready, demo accounts present (demo mode), outbox worker and jobs running. Once per process. */
export function appReady(): Promise<void> {
  holder.__clinicaReady ??= (async () => {
    const current = env();
    assertWhatsAppTimingFits(current);
    const db = await getDb();
    // Each query's time goes to /metrics (clinica_db_query_duration_seconds; issue 25).
    instrumentDatabase(db);
    const auth = await getAuth();
    if (isDemoMode(current)) {
      await seedDemoAccounts(db, auth);
      await seedDemoAppointments(db, auth);
      await assignSeededLeads(db, demoLeadSubmissionIds);
      if (seedsDemoStaffData(current)) await seedDemoStaffData(db);
    }
    if (current.NODE_ENV !== "test") {
      startOutboxWorker();
      startRateLimitPurge();
      startReminderJob();
      startPaymentReconciliation();
      startDataExportJob();
      startRetentionJob();
      startPrivacyDigest();
      startWaitlistJob();
      startBackupJob();
      publishBackupControl(current);
    }
    // Tests run no workers by design: for /readyz the workers are "started" once they are as configured.
    markWorkersStarted();
  })().catch((error: unknown) => {
    holder.__clinicaReady = undefined;
    throw error;
  });
  return holder.__clinicaReady;
}

/**
 * The server is listening (server.mjs) or, under the dev server, answering its first request: the work that must not
 * delay readiness starts now — the embedded database's VACUUM ANALYZE, table by table between requests (at boot it
 * held a restart with the demo's staff data ~0.4 s). Not part of readiness: /readyz is database, migrations, workers,
 * not draining. Once per process; never in tests (no workers) nor once the drain began.
 */
export function appServing(): void {
  if (holder.__clinicaServing || lifecycle().shuttingDown || env().NODE_ENV === "test") return;
  holder.__clinicaServing = true;
  startDatabaseMaintenance();
}

/** SIGTERM's drain began (server.mjs, through the entry): /readyz answers 503 from now on. */
export function appDraining(): void {
  markShuttingDown();
}

/** Stops the jobs, waits for the work they have in progress (bounded), then closes the database for good. */
export async function appStopped(): Promise<void> {
  await Promise.all([
    stopOutboxWorker(),
    stopRateLimitPurge(),
    stopReminderJob(),
    stopPaymentReconciliation(),
    stopDataExportJob(),
    stopRetentionJob(),
    stopPrivacyDigest(),
    stopWaitlistJob(),
    stopBackupJob(),
    stopDatabaseMaintenance(),
  ]);
  withdrawBackupControl();
  await closeDb();
}
