import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { PGLITE_DEFAULT_PARSERS, TEXT_AS_IS_TYPES, withInstanceParsers } from "~/db/pglite-parsers.server";
import { sessions } from "~/db/schema";
import { findSessionByToken } from "~/db/session-lookup.server";
import { createTestUser } from "../setup/users";

// ADR 051: Drizzle's per-statement parsers are given to PGlite's instance once, and the statements leave them out
// (PGlite copied its ~300 parsers into a new map for each statement that brought some). What a query answers must not
// change: Drizzle's columns still map dates themselves, raw SQL through Drizzle still reads them as text, and the
// session look-up's EXECUTE (not Drizzle's) still reads a Date.

const embedded = !process.env.DATABASE_URL;

interface Call {
  text: string;
  options: { parsers?: Record<number, unknown>; rowMode?: string } | undefined;
}

/** A client that records what reaches its `query`, inside and outside a transaction. */
function recordingClient() {
  const calls: Call[] = [];
  const query = async (text: string, _params?: unknown[], options?: Call["options"]) => {
    calls.push({ text, options });
    return { rows: [], fields: [] };
  };
  const client = {
    parsers: {},
    query,
    transaction: async (run: (tx: { query: typeof query }) => Promise<unknown>) => run({ query }),
  };
  return { client, calls };
}

const drizzleParsers = Object.fromEntries(TEXT_AS_IS_TYPES.map((oid) => [oid, (value: string) => value]));

describe("withInstanceParsers", () => {
  it("leaves out of a statement the parsers the instance already has, in and out of a transaction", async () => {
    const { client, calls } = recordingClient();
    withInstanceParsers(client as unknown as PGlite);
    await client.query("select 1", [], { rowMode: "array", parsers: drizzleParsers } as Call["options"]);
    await client.transaction((tx) =>
      tx.query("select 2", [], { rowMode: "object", parsers: drizzleParsers } as Call["options"]),
    );
    expect(calls).toEqual([
      { text: "select 1", options: { rowMode: "array", parsers: undefined } },
      { text: "select 2", options: { rowMode: "object", parsers: undefined } },
    ]);
  });

  it("keeps parsers the instance does not have (a statement that reads some other type its own way)", async () => {
    const { client, calls } = recordingClient();
    withInstanceParsers(client as unknown as PGlite);
    const own = { ...drizzleParsers, 25: (value: string) => value.toUpperCase() };
    await client.query("select 'a'", [], { parsers: own });
    expect(calls[0]!.options?.parsers).toBe(own);
  });
});

describe.skipIf(!embedded)("PGlite with the instance's parsers answers as before", () => {
  it("Drizzle's columns map a timestamptz to a Date, raw SQL reads dates and intervals as text", async () => {
    const db = await getDb();
    const user = await createTestUser();
    const expiresAt = new Date("2027-03-04T05:06:07.089Z");
    await db.update(sessions).set({ expiresAt }).where(eq(sessions.userId, user.id));
    const [row] = await db
      .select({ expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(eq(sessions.userId, user.id));
    expect(row!.expiresAt).toBeInstanceOf(Date);
    expect(row!.expiresAt.toISOString()).toBe(expiresAt.toISOString());

    const raw = await db.execute(
      sql`select date '2026-11-28' as d, interval '1 day 02:00' as i, timestamptz '2026-11-28 10:00:00+00' as t`,
    );
    const [values] = (raw as unknown as { rows: Array<Record<string, unknown>> }).rows;
    expect(values).toEqual({
      d: "2026-11-28",
      i: "1 day 02:00:00",
      t: "2026-11-28 10:00:00+00",
    });
  });

  it("the session look-up's EXECUTE still reads its timestamps as Dates", async () => {
    const user = await createTestUser();
    const db = await getDb();
    const [session] = await db
      .select({ token: sessions.token })
      .from(sessions)
      .where(eq(sessions.userId, user.id));
    const row = await findSessionByToken(db, session!.token);
    expect(row?.userId).toBe(user.id);
    expect(row?.expiresAt).toBeInstanceOf(Date);
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("a Drizzle database on such a client gives the same rows as one on a plain client", async () => {
    const plain = await PGlite.create();
    const tuned = withInstanceParsers(await PGlite.create());
    try {
      const query = sql`select timestamptz '2026-11-28 10:00:00+00' as t, date '2026-11-28' as d, 42::int as n, '{"a":1}'::jsonb as j, interval '3 hours' as i, array[date '2026-01-02'] as ds, array[1.5]::numeric[] as ns`;
      const fromPlain = await drizzle(plain).execute(query);
      const fromTuned = await drizzle(tuned).execute(query);
      expect(fromTuned.rows).toEqual(fromPlain.rows);
      // And the parsers the look-up's EXECUTE passes (exec is not Drizzle's, its parsers stay) are PGlite's own.
      const text = "select timestamptz '2026-11-28 10:00:00+00' as t, date '2026-11-28' as d";
      const [fromDefaults] = await tuned.exec(text, { parsers: PGLITE_DEFAULT_PARSERS });
      const [fromPlainExec] = await plain.exec(text);
      expect(fromDefaults!.rows).toEqual(fromPlainExec!.rows);
      expect(fromDefaults!.rows[0]).toMatchObject({ t: new Date("2026-11-28T10:00:00Z") });
    } finally {
      await plain.close();
      await tuned.close();
    }
  });
});
