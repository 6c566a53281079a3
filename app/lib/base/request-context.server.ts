import { AsyncLocalStorage } from "node:async_hooks";

/** What a log line about a request carries, and what the request's database time adds up in (issue 25). */
export interface RequestScope {
  readonly requestId: string;
  /** Seconds spent in database queries so far during this request. */
  dbSeconds: number;
}

const holder = globalThis as typeof globalThis & { __clinicaRequestScope?: AsyncLocalStorage<RequestScope> };
const storage = (holder.__clinicaRequestScope ??= new AsyncLocalStorage<RequestScope>());

/** Runs `fn` (and everything it starts) inside the request's scope: server.mjs wraps each request in one. */
export function withRequestScope<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId, dbSeconds: 0 }, fn);
}

/** The scope of the request this code runs for, if any (jobs and boot code run outside one). */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}
