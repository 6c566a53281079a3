import { PGlite, type Transaction as PGliteTransaction } from "@electric-sql/pglite";
import { eq, Placeholder, sql } from "drizzle-orm";
import { accountColumns, activeRoleNamesJson } from "./accounts.server";
import type { Database } from "./client.server";
import { sessions, users } from "./schema";
import { PGLITE_DEFAULT_PARSERS } from "./pglite-parsers.server";
import { pgliteOf, prepareNamed, sqlLiteral } from "./pglite-statements.server";

export interface SessionRow {
  sessionId: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  deactivatedAt: Date | null;
  /** Active role names, lower-case, aggregated in the same statement. */
  roles: string[];
}

function lookupFields(db: Database) {
  return {
    sessionId: sessions.id,
    expiresAt: sessions.expiresAt,
    createdAt: sessions.createdAt,
    updatedAt: sessions.updatedAt,
    userId: users.id,
    ...accountColumns,
    roles: activeRoleNamesJson(db),
  };
}

function lookupQuery(db: Database, by: "token" | "id") {
  return db
    .select(lookupFields(db))
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(by === "token" ? sessions.token : sessions.id, sql.placeholder("key")));
}

function buildLookup(db: Database, by: "token" | "id") {
  return lookupQuery(db, by).prepare(`clinica_session_lookup_by_${by}`);
}

// Building the statement is a measurable share of a portal request's CPU; it is built once per database handle.
const prepared = new WeakMap<Database, Record<"token" | "id", ReturnType<typeof buildLookup>>>();

/*
 * The embedded database: every request of a signed-in person starts with this look-up, and PGlite's `query` parses
 * and plans the statement again each time, in six protocol round trips into its WebAssembly PostgreSQL (Drizzle's
 * named prepare is a no-op there). That was a quarter of the CPU of a signed-in page (issue 25's profile). So on
 * PGlite the statement is PREPAREd once per database and run with EXECUTE in one simple-protocol round trip:
 * 0.38 ms of CPU instead of 0.99 ms. EXECUTE takes no bind parameters, so the token goes in as a literal, and only
 * a token made of the characters Better Auth's (and ours) are made of ever does; any other value takes the
 * parameterised path above, which answers the same (the integration tests compare both). PostgreSQL keeps
 * Drizzle's path: pg prepares a named statement once per connection already.
 */
const PGLITE_STATEMENT = "clinica_session_by_token";
const LITERAL_SAFE_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;
interface PglitePrepared {
  /** The select list's names, in the order of its columns. */
  fieldNames: string[];
  /** EXECUTE's arguments: the constants Drizzle made parameters (as SQL literals), null where the token goes. */
  args: Array<string | null>;
}
const preparedOnPglite = new WeakMap<PGlite, Promise<PglitePrepared>>();

async function prepareOnPglite(db: Database, client: PGlite): Promise<PglitePrepared> {
  const { sql: text, params } = lookupQuery(db, "token").toSQL();
  const args = params.map((param) => (param instanceof Placeholder ? null : sqlLiteral(param)));
  if (args.filter((arg) => arg === null).length !== 1)
    throw new Error("session look-up: one placeholder expected");
  // The parameters' types are inferred from the columns they are compared with.
  await prepareNamed(client, PGLITE_STATEMENT, text);
  // Drizzle writes the columns in the fields object's order.
  return { fieldNames: Object.keys(lookupFields(db)), args };
}

/*
 * And the row is kept between requests, on the embedded database only. PGlite belongs to one process (two cannot
 * open its data directory), so every change to a session, a user or a role goes through this process's client:
 * the client is watched, and any statement that may write `sessions`, `users`, `user_roles` or `roles` (by its
 * text: a write keyword and one of those names) empties the cache before it runs, again once it has run, and once
 * more when a transaction that ran one ends. A sign-out, a revocation, a deactivation or a role change is thus
 * seen by the very next request, as without the cache. A look-up keeps its row only if no such statement started
 * while it ran (generation), and PGlite runs one statement or transaction at a time, in order. What depends on the
 * time (expiry, the staff idle and absolute limits, the sliding refresh) is still decided on every request from the
 * row; the refresh and the activity touch are writes, so they empty the cache too. Only rows that exist are kept
 * (an unknown token is looked up every time), at most SESSION_CACHE_MAX for at most SESSION_CACHE_MS. PostgreSQL,
 * where other instances change the same rows, keeps no cache.
 */
const SESSION_CACHE_MS = 30_000;
const SESSION_CACHE_MAX = 5_000;
const WRITE_WORD = /\b(insert|update|delete|truncate|merge|copy|alter|drop|create|grant|revoke)\b/i;
const SESSION_TABLE = /\b(sessions|users|user_roles|roles)\b/i;

interface SessionCache {
  rows: Map<string, { row: SessionRow; at: number }>;
  /** Moves on at every write that may touch a session: a look-up that began before it keeps nothing. */
  generation: number;
}

const cacheOnPglite = new WeakMap<PGlite, SessionCache>();

const mayWriteSessions = (text: unknown) =>
  typeof text === "string" && WRITE_WORD.test(text) && SESSION_TABLE.test(text);

type Runner = (text: unknown, ...rest: unknown[]) => Promise<unknown>;

/** Wraps `query` and `exec` of `target` (the client, or a transaction) so that a session write empties the cache. */
function watchStatements(target: { query: unknown; exec: unknown }, forget: () => void, wrote?: () => void) {
  for (const method of ["query", "exec"] as const) {
    const original = target[method] as Runner;
    target[method] = function (this: unknown, text: unknown, ...rest: unknown[]) {
      if (!mayWriteSessions(text)) return original.call(this, text, ...rest);
      forget();
      wrote?.();
      return original.call(this, text, ...rest).finally(forget);
    } as Runner;
  }
}

function sessionCacheOf(client: PGlite): SessionCache {
  const known = cacheOnPglite.get(client);
  if (known) return known;
  const cache: SessionCache = { rows: new Map(), generation: 0 };
  const forget = () => {
    cache.generation += 1;
    cache.rows.clear();
  };
  watchStatements(client, forget);
  const transaction = client.transaction as (fn: (tx: PGliteTransaction) => unknown) => Promise<unknown>;
  client.transaction = function (this: unknown, fn: (tx: PGliteTransaction) => unknown) {
    let wrote = false;
    return transaction
      .call(this, (tx) => {
        watchStatements(tx, forget, () => (wrote = true));
        return fn(tx);
      })
      .finally(() => {
        if (wrote) forget();
      });
  } as typeof client.transaction;
  cacheOnPglite.set(client, cache);
  return cache;
}

/** The session row for `token`, from the cache or read with EXECUTE (and then kept, unless a write began meanwhile). */
async function findByTokenOnPglite(db: Database, client: PGlite, token: string): Promise<SessionRow | null> {
  const cache = sessionCacheOf(client);
  const now = Date.now();
  const kept = cache.rows.get(token);
  if (kept && now - kept.at < SESSION_CACHE_MS) return copyOf(kept.row);
  const generation = cache.generation;
  const row = await executeLookup(db, client, token);
  if (row && generation === cache.generation) {
    if (cache.rows.size >= SESSION_CACHE_MAX) cache.rows.clear();
    cache.rows.set(token, { row, at: now });
    return copyOf(row);
  }
  return row;
}

/** Each caller gets its own row (and role list) to keep: the cached one is never handed out. */
const copyOf = (row: SessionRow): SessionRow => ({ ...row, roles: [...row.roles] });

/** The same row as the parameterised look-up, read with EXECUTE (columns in lookupQuery's order). */
async function executeLookup(db: Database, client: PGlite, token: string): Promise<SessionRow | null> {
  let statement = preparedOnPglite.get(client);
  if (!statement) {
    statement = prepareOnPglite(db, client);
    preparedOnPglite.set(client, statement);
    statement.catch(() => preparedOnPglite.delete(client));
  }
  const { fieldNames, args } = await statement;
  // sqlLiteral quotes it as any text; the caller has already checked it holds none of the characters that matter.
  const values = args.map((arg) => arg ?? sqlLiteral(token)).join(", ");
  // PGlite's own parsers for dates (the instance reads them as text for Drizzle, ADR 051).
  const results = await client.exec(`execute ${PGLITE_STATEMENT}(${values})`, {
    rowMode: "array",
    parsers: PGLITE_DEFAULT_PARSERS,
  });
  const row = results.at(-1)?.rows[0] as unknown[] | undefined;
  if (!row) return null;
  // PGlite's own parsers give what Drizzle's columns give here: Date for timestamptz, boolean, parsed json.
  const named = Object.fromEntries(fieldNames.map((name, index) => [name, row[index]]));
  return { ...(named as Omit<SessionRow, "roles">), roles: roleNames(named.roles) };
}

function roleNames(value: unknown): string[] {
  // The subquery's json arrives parsed from both drivers; a string would mean a driver change, so parse it too.
  const names: unknown = typeof value === "string" ? JSON.parse(value) : value;
  return Array.isArray(names) ? names.map(String) : [];
}

async function findSession(db: Database, by: "token" | "id", key: string): Promise<SessionRow | null> {
  if (by === "token" && LITERAL_SAFE_TOKEN.test(key)) {
    const client = pgliteOf(db);
    if (client) return findByTokenOnPglite(db, client, key);
  }
  let lookups = prepared.get(db);
  if (!lookups) {
    lookups = { token: buildLookup(db, "token"), id: buildLookup(db, "id") };
    prepared.set(db, lookups);
  }
  const [row] = await lookups[by].execute({ key });
  if (!row) return null;
  return { ...row, roles: roleNames(row.roles) };
}

/** Session by token with its user and the user's active roles, in one round trip (null: no such session). */
export function findSessionByToken(db: Database, token: string): Promise<SessionRow | null> {
  return findSession(db, "token", token);
}

/** The same by the session's id (chat tokens bound to a session, ADR 032). */
export function findSessionById(db: Database, sessionId: string): Promise<SessionRow | null> {
  return findSession(db, "id", sessionId);
}

/**
 * Writes Better Auth's sliding refresh (a new expiry) and/or our activity time. False when the session is gone
 * (revoked meanwhile), which the caller must treat as signed out.
 */
export async function updateSessionTimes(
  db: Database,
  sessionId: string,
  change: { expiresAt?: Date; updatedAt: Date },
): Promise<boolean> {
  const updated = await db
    .update(sessions)
    .set(change)
    .where(eq(sessions.id, sessionId))
    .returning({ id: sessions.id });
  return updated.length > 0;
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}
