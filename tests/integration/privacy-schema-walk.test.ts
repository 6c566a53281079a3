import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, type Database } from "~/db/client.server";
import { impersonalTables, personalTables, type PersonalTable } from "~/domain/privacy-data-map";

/**
 * The schema walk (Ley 21.719 access and portability, ADR 037): reads the live schema (information_schema, schema
 * `public`) and fails when a table with a column that names a person — a foreign key to `users`, or a column named
 * like a user id, patient id, external id, e-mail, phone or RUT — or a table whose rows hang from a person's row (a
 * foreign key to a mapped table) is missing from the data map, so from the export and the erasure; when such a
 * column of a mapped table is neither a subject nor an actor column; or when the map names a table or column that
 * does not exist. A future table cannot escape the export.
 */

const PERSON_COLUMN_NAME = /(^|_)user_id$|patient_id$|^external_id$|email|phone|^rut$/;
/** Types a person's identifier can be stored in (a boolean `email_verified` names nobody). */
const IDENTIFIER_TYPES = new Set(["text", "character varying", "character", "uuid", "jsonb", "json"]);

const mapped = personalTables as Record<string, PersonalTable>;

interface Column {
  table: string;
  column: string;
}

interface Schema {
  columns: Map<string, Set<string>>;
  /** Per table, the columns that name a person. */
  personColumns: Map<string, Set<string>>;
  /** Per table, its foreign keys to a table of the map (its rows hang from a person's row: a lead, a chat room…). */
  hangsFrom: Map<string, Set<string>>;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

async function readSchema(db: Pick<Database, "execute">): Promise<Schema> {
  const all = rowsOf<Column & { type: string }>(
    await db.execute(sql`
      select c.table_name as "table", c.column_name as "column", c.data_type as "type"
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`),
  );
  // Foreign keys by their target: to users (whatever the column's name: actor_id, decided_by, waived_by…) or to a
  // table of the map.
  const foreignKeys = rowsOf<Column & { target: string }>(
    await db.execute(sql`
      select kcu.table_name as "table", kcu.column_name as "column", ccu.table_name as "target"
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu
        on kcu.constraint_schema = tc.constraint_schema and kcu.constraint_name = tc.constraint_name
      join information_schema.constraint_column_usage ccu
        on ccu.constraint_schema = tc.constraint_schema and ccu.constraint_name = tc.constraint_name
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public' and ccu.table_schema = 'public'`),
  );
  const schema: Schema = { columns: new Map(), personColumns: new Map(), hangsFrom: new Map() };
  const add = (map: Map<string, Set<string>>, { table, column }: Column) => {
    const set = map.get(table) ?? new Set<string>();
    set.add(column);
    map.set(table, set);
  };
  for (const entry of all) {
    add(schema.columns, entry);
    if (PERSON_COLUMN_NAME.test(entry.column) && IDENTIFIER_TYPES.has(entry.type))
      add(schema.personColumns, entry);
  }
  for (const entry of foreignKeys) {
    if (entry.target === "users") add(schema.personColumns, entry);
    else if (entry.target in mapped && entry.target !== entry.table) add(schema.hangsFrom, entry);
  }
  return schema;
}

/** Tables of `found` in neither list, with the columns that gave them away. */
function unlisted(found: Map<string, Set<string>>): string[] {
  return [...found.keys()]
    .filter((table) => !(table in mapped) && !(table in impersonalTables))
    .map((table) => `${table} (${[...found.get(table)!].join(", ")})`);
}

let schema: Schema;

beforeAll(async () => {
  schema = await readSchema(await getDb());
});
afterAll(closeDb);

describe("the privacy data map against the live schema", () => {
  it("reads the real schema: columns by name and foreign keys by their target", () => {
    expect(schema.columns.size).toBeGreaterThan(30);
    expect([...schema.personColumns.get("users")!]).toEqual(
      expect.arrayContaining(["email", "phone", "rut"]),
    );
    expect(schema.personColumns.get("users")!.has("email_verified")).toBe(false);
    // Found by the foreign key's target, not by the name.
    expect([...schema.personColumns.get("charges")!]).toEqual(expect.arrayContaining(["waived_by"]));
    expect([...schema.hangsFrom.get("chat_messages")!]).toEqual(["room_id"]);
  });

  it("lists every table with a person column as personal or impersonal", () => {
    expect(
      unlisted(schema.personColumns),
      "add these tables to personalTables (or impersonalTables, with the reason)",
    ).toEqual([]);
  });

  it("lists every table whose rows hang from a person's row", () => {
    expect(unlisted(schema.hangsFrom)).toEqual([]);
  });

  it("declares every person column of a personal table as a subject, actor or clinic column", () => {
    const undeclared: string[] = [];
    for (const [table, entry] of Object.entries(mapped)) {
      const declared = new Set([
        ...entry.subjectColumns,
        ...(entry.actorColumns ?? []),
        ...(entry.clinicColumns ?? []),
      ]);
      for (const column of schema.personColumns.get(table) ?? []) {
        if (!declared.has(column)) undeclared.push(`${table}.${column}`);
      }
    }
    expect(
      undeclared,
      "each is about the person (subjectColumns) or names staff acting (actorColumns)",
    ).toEqual([]);
  });

  it("names only tables and columns that exist", () => {
    const stale: string[] = [];
    for (const [table, entry] of Object.entries(mapped)) {
      const existing = schema.columns.get(table);
      if (!existing) {
        stale.push(table);
        continue;
      }
      const named = [
        ...entry.subjectColumns,
        ...(entry.actorColumns ?? []),
        ...(entry.secretColumns ?? []),
        ...(entry.clinicColumns ?? []),
        ...(entry.retention ? [entry.retention.from] : []),
      ];
      for (const column of named) if (!existing.has(column)) stale.push(`${table}.${column}`);
    }
    for (const table of Object.keys(impersonalTables)) if (!schema.columns.has(table)) stale.push(table);
    expect(stale).toEqual([]);
  });

  it("keeps a table out of both lists at once; a retained table says from when its term runs", () => {
    expect(Object.keys(impersonalTables).filter((table) => table in mapped)).toEqual([]);
    const retainedWithoutTerm = Object.entries(mapped)
      .filter(([, entry]) => entry.erasure === "retain" && !entry.retention)
      .map(([table]) => table);
    expect(retainedWithoutTerm).toEqual([]);
  });

  it("catches a new table that would escape the export (added and rolled back in a transaction)", async () => {
    const db = await getDb();
    const rollback = new Error("rollback");
    let seen: { people: string[]; hanging: string[] } | undefined;
    await db
      .transaction(async (tx) => {
        await tx.execute(
          sql`create table scratch_notes (id serial primary key, author_user_id text references users(id), body text)`,
        );
        await tx.execute(sql`create table scratch_contacts (id serial primary key, contact_phone text)`);
        await tx.execute(
          sql`create table scratch_room_tags (id serial primary key, room uuid references chat_rooms(id))`,
        );
        const walked = await readSchema(tx);
        seen = { people: unlisted(walked.personColumns), hanging: unlisted(walked.hangsFrom) };
        throw rollback;
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
      });
    expect(seen).toEqual({
      people: expect.arrayContaining(["scratch_notes (author_user_id)", "scratch_contacts (contact_phone)"]),
      hanging: ["scratch_room_tags (room)"],
    });
    expect(unlisted((await readSchema(db)).personColumns)).toEqual([]);
  });
});
