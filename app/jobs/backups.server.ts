import { runDailyBackup } from "~/features/backups/backup-service.server";
import { intervalJob } from "./interval-job.server";

/**
 * The daily backup of the embedded database (ADR 046): once an hour (and at start) it looks whether today's (America/
 * Santiago) backup is in BACKUP_DIR, and takes it if not, keeping the last BACKUP_KEEP. On PostgreSQL it does nothing:
 * the database server's own backups (pg_dump, base backups) are the operator's.
 */
const LOOK_EVERY_MS = 60 * 60_000;

const backupJob = intervalJob({
  key: "backups",
  everyMs: LOOK_EVERY_MS,
  runAtStart: true,
  whileRunning: "skip",
  failureMessage: "daily backup failed",
  run: () => runDailyBackup(new Date()),
});

export function startBackupJob() {
  backupJob.start();
}

/** Stops the hourly look and waits for a backup in progress to be written. */
export async function stopBackupJob(): Promise<void> {
  await backupJob.stop();
}
