import { types, type PGlite } from "@electric-sql/pglite";

/**
 * Drizzle gives PGlite the same parsers with every statement: the text of dates, timestamps and intervals (and of
 * their arrays, and of numeric[]) as it arrives, which Drizzle's columns then map themselves
 * (`drizzle-orm/pglite/session.js`). PGlite merges a statement's parsers into a new copy of its own map of ~300 type
 * parsers for each statement that brings some (`parseResults`: `{ ...this.parsers, ...options.parsers }`): about
 * 0.15 ms of CPU per statement, 15 % of the outbox's delivery work (ADR 051). Given once to the instance instead, the
 * statements bring none and the result is the same.
 */
export const TEXT_AS_IS_TYPES: readonly number[] = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];

const asIs = (value: string) => value;

/**
 * The instance's parsers for those types (set by `withInstanceParsers`): as text. Every other type keeps PGlite's own.
 * Set on the created instance, not through `PGlite.create({ parsers })`: PGlite then replaces the array types' parsers
 * with its array parser at start, where Drizzle's keep an array's text.
 */
export const PGLITE_INSTANCE_PARSERS: Record<number, (value: string) => unknown> = Object.fromEntries(
  TEXT_AS_IS_TYPES.map((oid) => [oid, asIs]),
);

/**
 * PGlite's own parsers for the types above (a `Date` for a timestamp): what a statement that is not Drizzle's passes
 * to read them as PGlite would without `PGLITE_INSTANCE_PARSERS` (the session look-up's EXECUTE).
 */
export const PGLITE_DEFAULT_PARSERS: Record<number, (value: string, typeId?: number) => unknown> =
  Object.fromEntries(
    TEXT_AS_IS_TYPES.flatMap((oid) => {
      const parse = (types.parsers as Record<number, ((value: string) => unknown) | undefined>)[oid];
      return parse ? [[oid, parse]] : [];
    }),
  );

interface QueryOptions {
  parsers?: Record<number, unknown>;
}
type Query = (text: string, params?: unknown[], options?: QueryOptions) => Promise<unknown>;

/** Whether a statement's parsers are only the ones the instance already has (Drizzle's). */
function onlyTextAsIs(parsers: Record<number, unknown>): boolean {
  return Object.keys(parsers).every((oid) => TEXT_AS_IS_TYPES.includes(Number(oid)));
}

function dropRedundantParsers(target: { query: Query }) {
  const query = target.query.bind(target);
  target.query = (text, params, options) =>
    query(
      text,
      params,
      options?.parsers && onlyTextAsIs(options.parsers) ? { ...options, parsers: undefined } : options,
    );
}

/**
 * Gives the instance Drizzle's parsers (`PGLITE_INSTANCE_PARSERS`), and makes the client's statements, and those of its
 * transactions, leave out parsers that are only those. Call once, after `PGlite.create` and before Drizzle wraps it.
 */
export function withInstanceParsers(client: PGlite): PGlite {
  Object.assign(client.parsers, PGLITE_INSTANCE_PARSERS);
  const target = client as unknown as { query: Query; transaction: PGlite["transaction"] };
  dropRedundantParsers(target);
  const transaction = client.transaction.bind(client);
  target.transaction = ((run: (tx: never) => Promise<unknown>) =>
    transaction((tx) => {
      dropRedundantParsers(tx as unknown as { query: Query });
      return run(tx as never);
    })) as PGlite["transaction"];
  return client;
}
