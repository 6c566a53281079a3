/*
 * The outbox worker's doorbell. Code that has just enqueued (and committed) rings it so that the in-process worker
 * delivers now rather than at its next poll. The worker itself is a job (jobs/outbox-worker.server.ts, started by
 * startup/): it registers here when it starts and leaves when it stops, so features need not import jobs/.
 */

const holder = globalThis as typeof globalThis & { __clinicaOutboxKick?: () => void };

/** The running worker's "deliver soon"; undefined when the worker stops. */
export function setOutboxKick(kick: (() => void) | undefined) {
  holder.__clinicaOutboxKick = kick;
}

/** Deliver soon after something was enqueued (the caller has already committed). No-op when the worker is off. */
export function kickOutboxWorker() {
  holder.__clinicaOutboxKick?.();
}
