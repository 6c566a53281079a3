import type { Database } from "~/db/client.server";
import { observeDbQuery } from "~/lib/metrics.server";

/*
 * Database query time (issue 25): the driver under Drizzle is wrapped from outside (db/ itself is untouched), so
 * that each query's time reaches clinica_db_query_duration_seconds and the request's total. Drizzle sends every
 * query through the driver's `query`: PGlite's, or the transaction object PGlite hands to `transaction`; pg.Pool's,
 * or the pooled client `connect` gives a transaction; and PGlite's `exec` of a prepared statement (below).
 */

type Queryable = { query?: (...args: unknown[]) => unknown; exec?: (...args: unknown[]) => unknown };
const TIMED = Symbol.for("clinica.timedQuery");
const PREPARED_EXECUTE = /^\s*execute\s/i;

/**
 * Times the driver's `query`, and PGlite's `exec` when it runs a prepared statement (EXECUTE: the session look-up,
 * db/session-lookup.server.ts). Its other statements are maintenance (VACUUM, CHECKPOINT, migrations), not the
 * queries whose time the alert on this histogram watches.
 */
function timeQueries(target: Queryable | null | undefined): void {
  timeMethod(target, "query", () => true);
  timeMethod(target, "exec", (args) => typeof args[0] === "string" && PREPARED_EXECUTE.test(args[0]));
}

function timeMethod(
  target: Queryable | null | undefined,
  method: "query" | "exec",
  timed: (args: unknown[]) => boolean,
): void {
  if (!target || typeof target[method] !== "function") return;
  const original = target[method] as ((...args: unknown[]) => unknown) & { [TIMED]?: true };
  if (original[TIMED]) return;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    if (!timed(args)) return original.apply(this, args);
    const started = performance.now();
    const result = original.apply(this, args);
    if (result && typeof (result as PromiseLike<unknown>).then === "function") {
      const done = () => observeDbQuery((performance.now() - started) / 1000);
      (result as Promise<unknown>).then(done, done);
    }
    return result;
  } as typeof original;
  wrapped[TIMED] = true;
  target[method] = wrapped;
}

/** Wraps the database's driver once; safe to call again. */
export function instrumentDatabase(db: Database): void {
  const driver = (db as unknown as { $client?: Record<string, unknown> }).$client;
  if (!driver || driver[TIMED as unknown as string]) return;
  driver[TIMED as unknown as string] = true;
  timeQueries(driver as Queryable);
  const transaction = driver.transaction;
  if (typeof transaction === "function") {
    driver.transaction = function (this: unknown, fn: (tx: unknown) => unknown, ...rest: unknown[]) {
      return (transaction as (...args: unknown[]) => unknown).call(
        this,
        (tx: Queryable) => {
          timeQueries(tx);
          return fn(tx);
        },
        ...rest,
      );
    };
  }
  const connect = driver.connect;
  if (typeof connect === "function") {
    driver.connect = function (this: unknown, ...args: unknown[]) {
      // The callback form is not Drizzle's: passed through untimed.
      if (args.length > 0) return (connect as (...a: unknown[]) => unknown).apply(this, args);
      return (connect as () => Promise<Queryable>).call(this).then((pooled) => {
        timeQueries(pooled);
        return pooled;
      });
    };
  }
}
