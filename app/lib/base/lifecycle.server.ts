/*
 * The process's readiness flags (issue 25): set by the composition root when the workers start and by server.mjs
 * (through the entry) when SIGTERM's drain begins; read by /readyz.
 */
const holder = globalThis as typeof globalThis & {
  __clinicaLifecycle?: { workersStarted: boolean; shuttingDown: boolean };
};
const state = (holder.__clinicaLifecycle ??= { workersStarted: false, shuttingDown: false });

export function markWorkersStarted(): void {
  state.workersStarted = true;
}

export function markShuttingDown(): void {
  state.shuttingDown = true;
}

export function lifecycle(): { readonly workersStarted: boolean; readonly shuttingDown: boolean } {
  return { workersStarted: state.workersStarted, shuttingDown: state.shuttingDown };
}
