/*
 * The export job's doorbell: a request rings it after its commit so that the in-process job starts building now
 * rather than at its next poll. The job (jobs/data-exports.server.ts) registers here when it starts and leaves when it
 * stops, so the feature need not import jobs/ (as features/outbox/outbox-worker.server.ts does for the outbox).
 */

const holder = globalThis as typeof globalThis & { __clinicaDataExportKick?: () => void };

export function setDataExportKick(kick: (() => void) | undefined) {
  holder.__clinicaDataExportKick = kick;
}

/** Build soon. No-op when the job is off (tests run it by hand). */
export function kickDataExportJob() {
  holder.__clinicaDataExportKick?.();
}
