import { AsyncLocalStorage } from "node:async_hooks";

/** What a log line about a request carries, and what the request's database time adds up in (issue 25). */
export interface RequestScope {
  readonly requestId: string;
  /** Seconds spent in database queries so far during this request. */
  dbSeconds: number;
}

const holder = globalThis as typeof globalThis & { __clinicaRequestScope?: AsyncLocalStorage<RequestScope> };
const storage = (holder.__clinicaRequestScope ??= new AsyncLocalStorage<RequestScope>());

/** A request's scope: server.mjs opens one per request, runs the request in it and reads its totals at the end. */
export function openRequestScope(requestId: string): RequestScope {
  return { requestId, dbSeconds: 0 };
}

/** Runs `fn` (and everything it starts) inside the request's scope. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the request this code runs for, if any (jobs and boot code run outside one). */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}
