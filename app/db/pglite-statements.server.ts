import { PGlite } from "@electric-sql/pglite";
import * as drizzle from "drizzle-orm";
import { fillPlaceholders } from "drizzle-orm";
import type { Database } from "./client.server";

/** Drizzle's own row mapper (exported at run time, left out of its type declarations as internal). */
type OrderedFields = unknown[];
const { mapResultRow } = drizzle as unknown as {
  mapResultRow: (
    fields: OrderedFields,
    row: unknown[],
    joins: Record<string, boolean> | undefined,
  ) => unknown;
};

/*
 * Hot read statements (ADR 053). PGlite's `query` parses, analyses and plans a statement again on every call (its
 * planner also asks the WebAssembly file system for each table's size: fstat and lseek per relation), in several
 * protocol round trips, and Drizzle builds the statement's text again each time; for a portal page that was most of
 * its CPU (issue 25's profile). A hot statement is built once per database: on PGlite it is PREPAREd once and run
 * with EXECUTE in one simple-protocol round trip, its rows mapped by Drizzle's own mapper from the same driver values
 * Drizzle's path reads (the instance's parsers, ADR 051). EXECUTE takes no bind parameters: each value is written as
 * an SQL literal (`sqlLiteral`), which PostgreSQL then coerces to the parameter's type, as it would a bound one. On
 * PostgreSQL (and inside a transaction) the statement goes through Drizzle as before, as a named statement that pg
 * prepares once per connection.
 */

/** What Drizzle's prepared query of a select holds (PglitePreparedQuery's fields; stable since drizzle-orm 0.30). */
interface DrizzlePrepared<Row> {
  execute(values?: Record<string, unknown>): Promise<Row[]>;
  queryString?: string;
  params?: unknown[];
  fields?: OrderedFields;
  joinsNotNullableMap?: Record<string, boolean>;
}

interface Preparable<Row> {
  prepare(name: string): unknown;
  toSQL(): { sql: string };
  // A select's result row type, as Drizzle infers it.
  execute(): Promise<Row[]>;
}

interface OnPglite {
  name: string;
  params: unknown[];
  fields: OrderedFields;
  joinsNotNullableMap: Record<string, boolean> | undefined;
}

type Reader = Pick<Database, "select">;

/** A statement's values as SQL literals (the kinds Drizzle's placeholders and constants take here). */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`hot statement: no SQL literal for ${value}`);
    return String(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error("hot statement: invalid date");
    return quoted(value.toISOString());
  }
  if (typeof value === "string") return quoted(value);
  if (Array.isArray(value)) return quoted(`{${value.map(arrayElement).join(",")}}`);
  throw new Error(`hot statement: no SQL literal for a ${typeof value} value`);
}

/** A standard SQL string (standard_conforming_strings is on in every supported PostgreSQL: backslashes are plain). */
function quoted(text: string): string {
  // A NUL cannot be in PostgreSQL text; refusing it keeps the literal exactly the value.
  if (text.includes("\0")) throw new Error("hot statement: a NUL character in a value");
  return `'${text.replaceAll("'", "''")}'`;
}

/** One element of an array literal (`{"a","b"}`): quoted, with its backslashes and double quotes escaped. */
function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
    return String(value);
  if (typeof value !== "string") throw new Error(`hot statement: no array element for a ${typeof value}`);
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** The PGlite instance under a Drizzle database, or null on PostgreSQL (and inside a transaction). */
export function pgliteOf(db: Reader): PGlite | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof PGlite ? client : null;
}

const STATEMENT_NAME = /^[a-z][a-z0-9_]{0,40}$/;

/** FNV-1a of the statement's text, 8 hex digits: part of its prepared name. */
function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/*
 * The prepared name is `clinica_hot_<name>_<hash of its SQL>`: two definitions under one name (a module the dev
 * server evaluates again after an edit, or a copy-paste slip) can never run each other's statement, on PGlite or on
 * a pooled PostgreSQL connection, which refuses one name for two texts.
 */
const preparedName = (name: string, text: string) => `clinica_hot_${name}_${textHash(text)}`;

/** PREPAREs `text` as `name` on PGlite; one already there under that name (a dev server's reload) is replaced. */
export async function prepareNamed(client: PGlite, name: string, text: string): Promise<void> {
  const statement = `prepare ${name} as ${text}`;
  try {
    await client.exec(statement);
  } catch (error) {
    // 42P05: prepared already on this database (this module evaluated again by a dev server): replace it.
    if ((error as { code?: string }).code !== "42P05") throw error;
    await client.exec(`deallocate ${name}; ${statement}`);
  }
}

/**
 * A hot read statement named `name` (lower-case letters, digits, underscores; at most 41), built by `build` with
 * `sql.placeholder(...)` for its values: the returned function runs it with those values and answers Drizzle's rows.
 */
export function hotStatement<Row, Values extends Record<string, unknown>>(
  name: string,
  build: (db: Reader) => Preparable<Row>,
): (db: Reader, values: Values) => Promise<Row[]> {
  if (!STATEMENT_NAME.test(name)) throw new Error(`hot statement: bad name ${name}`);
  const onPglite = new WeakMap<PGlite, Promise<OnPglite>>();
  const drizzlePrepared = new WeakMap<Reader, DrizzlePrepared<Row>>();

  const viaDrizzle = (db: Reader, values: Values) => {
    let prepared = drizzlePrepared.get(db);
    if (!prepared) {
      const query = build(db);
      prepared = query.prepare(preparedName(name, query.toSQL().sql)) as DrizzlePrepared<Row>;
      drizzlePrepared.set(db, prepared);
    }
    return prepared.execute(values);
  };

  const prepareOn = async (db: Reader, client: PGlite): Promise<OnPglite> => {
    const query = build(db);
    const prepared = query.prepare(name) as DrizzlePrepared<Row>;
    const { queryString, params, fields } = prepared;
    if (typeof queryString !== "string" || !Array.isArray(params) || !fields)
      throw new Error(`hot statement ${name}: not a select Drizzle can prepare`);
    const statementName = preparedName(name, queryString);
    await prepareNamed(client, statementName, queryString);
    return { name: statementName, params, fields, joinsNotNullableMap: prepared.joinsNotNullableMap };
  };

  const run = async (db: Reader, client: PGlite, values: Values, again = true): Promise<Row[]> => {
    let statement = onPglite.get(client);
    if (!statement) {
      statement = prepareOn(db, client);
      onPglite.set(client, statement);
      statement.catch(() => onPglite.delete(client));
    }
    const { name: statementName, params, fields, joinsNotNullableMap } = await statement;
    const args = fillPlaceholders(params, values).map(sqlLiteral);
    const text =
      args.length > 0 ? `execute ${statementName}(${args.join(", ")})` : `execute ${statementName}`;
    try {
      const results = await client.exec(text, { rowMode: "array" });
      const rows = (results.at(-1)?.rows ?? []) as unknown as unknown[][];
      return rows.map((row) => mapResultRow(fields, row, joinsNotNullableMap) as Row);
    } catch (error) {
      // 26000: the statement is gone (DEALLOCATE ALL, DISCARD ALL): prepare it again, once.
      if ((error as { code?: string }).code !== "26000" || !again) throw error;
      onPglite.delete(client);
      return run(db, client, values, false);
    }
  };

  return (db, values) => {
    const client = pgliteOf(db);
    return client ? run(db, client, values) : viaDrizzle(db, values);
  };
}
