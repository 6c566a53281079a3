import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  BackupError,
  dumpPglite,
  openPglite,
  pgDumpToFile,
  pgRestoreFromFile,
  restorePglite,
  writeFileDurably,
} from "~/db/backup.server";
import {
  seedAppointmentsSql,
  seedLeadsSql,
  seedUsersSql,
  tableChecksums,
} from "../../scripts/backup-data.mjs";
import { createScratchDatabase, postgresUrlFromEnv } from "../setup/postgres-database";

/*
 * Backups and restores (issue 25, ADR 046), on the layer this project runs on: PGlite (the embedded database, backed
 * up by the process that holds it, through the server's own code path) or PostgreSQL (pg_dump / pg_restore).
 */

const postgresUrl = postgresUrlFromEnv();
const work = mkdtempSync(path.join(tmpdir(), "clinica-backup-test-"));
if (!postgresUrl) {
  // The embedded database on disk, as a server runs it (the project's default is in memory).
  process.env.DATA_DIR = path.join(work, "data");
  process.env.BACKUP_DIR = path.join(work, "backups");
}
const { closeDb, getDb } = await import("~/db/client.server");
const { takeEmbeddedBackup } = await import("~/features/backups/backup-service.server");

afterAll(async () => {
  await closeDb();
  rmSync(work, { recursive: true, force: true });
});

type Query = (text: string) => Promise<Record<string, unknown>[]>;

async function appQuery(text: string) {
  const db = await getDb();
  const result = (await db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] };
  return result.rows;
}

/** A client on a database of the server at `url`, with its query and close. */
async function postgresClient(url: string): Promise<Opened> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { query: async (text) => (await client.query(text)).rows, close: () => client.end() };
}

interface Opened {
  query: Query;
  close: () => Promise<void>;
}

/** What differs between the two layers; the tests below are the same on both. */
interface Layer {
  name: string;
  /** A backup of the app's database, taken the way `npm run backup` takes it. */
  backup(): Promise<string>;
  /** The app's database gone: its files (PGlite) or the database itself, re-created empty (PostgreSQL). */
  wipe(): Promise<void>;
  restore(file: string, force?: boolean): Promise<unknown>;
  openRestored(): Promise<Opened>;
  /** A database of its own migrated with `migrationsFolder`, seeded, backed up and restored into an empty one. */
  restoreOfAnother(
    migrationsFolder: string,
    seed: (query: Query) => Promise<void>,
  ): Promise<Opened & { migrate: (folder: string) => Promise<void> }>;
}

const pgliteOpened = (client: Awaited<ReturnType<typeof openPglite>>): Opened => ({
  query: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
  close: () => client.close(),
});

const pgliteLayer: Layer = {
  name: "PGlite",
  backup: async () => (await takeEmbeddedBackup("manual")).file,
  wipe: async () => rmSync(path.join(process.env.DATA_DIR!, "pglite"), { recursive: true, force: true }),
  restore: (file, force) => restorePglite(file, path.join(process.env.DATA_DIR!, "pglite"), { force }),
  openRestored: async () => pgliteOpened(await openPglite(path.join(process.env.DATA_DIR!, "pglite"))),
  async restoreOfAnother(migrationsFolder, seed) {
    const old = await openPglite(path.join(work, "previous-data"));
    await migratePglite(drizzlePglite(old), { migrationsFolder });
    await seed(pgliteOpened(old).query);
    const file = path.join(work, "previous.tar.gz");
    await writeFileDurably(file, await dumpPglite(old));
    await old.close();
    const dataDir = path.join(work, "restored-previous");
    mkdirSync(dataDir);
    await restorePglite(file, dataDir);
    const client = await openPglite(dataDir);
    return {
      ...pgliteOpened(client),
      migrate: async (folder) => {
        await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
      },
    };
  },
};

function postgresLayer(url: string): Layer {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const prefix = process.env.TEST_DATABASE_PREFIX!;
  return {
    name: "PostgreSQL",
    async backup() {
      const file = path.join(work, "backups", "clinica-manual-prueba.dump");
      await pgDumpToFile(url, file);
      return file;
    },
    async wipe() {
      const admin = await postgresClient(serverUrl);
      const name = new URL(url).pathname.slice(1);
      await admin.query(`drop database ${name} with (force)`);
      await admin.query(`create database ${name}`);
      await admin.close();
    },
    restore: (file, force) => pgRestoreFromFile(url, file, { force }),
    openRestored: () => postgresClient(url),
    async restoreOfAnother(migrationsFolder, seed) {
      // Both are dropped with the run's other databases (tests/setup/postgres-global.ts).
      const old = await createScratchDatabase(serverUrl, prefix);
      const target = await createScratchDatabase(serverUrl, prefix);
      const oldClient = new pg.Client({ connectionString: old.url });
      await oldClient.connect();
      await migratePg(drizzlePg(oldClient), { migrationsFolder });
      await seed(async (text) => (await oldClient.query(text)).rows);
      await oldClient.end();
      const file = path.join(work, "previous.dump");
      await pgDumpToFile(old.url, file);
      await pgRestoreFromFile(target.url, file);
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      return {
        query: async (text) => (await client.query(text)).rows,
        close: () => client.end(),
        migrate: async (folder) => {
          await migratePg(drizzlePg(client), { migrationsFolder: folder });
        },
      };
    },
  };
}

const layer = postgresUrl ? postgresLayer(postgresUrl) : pgliteLayer;

const WRITERS = 3;
const LOAD_PREFIX = "carga-";
const loadEmail = (writer: number, i: number) =>
  `${LOAD_PREFIX}${writer}-${String(i).padStart(6, "0")}@leads.example`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`backup under write load, wipe, restore (${layer.name})`, () => {
  it("restores every table's rows and checksum, and a gap-free prefix of each writer's inserts", async () => {
    await appQuery(seedUsersSql("r"));
    await appQuery(seedLeadsSql("r", 1, 2_000));
    await appQuery(seedAppointmentsSql("r", 1, 300));
    const before = await tableChecksums(appQuery);
    expect(before["public.leads"]?.rows).toBe(2_000);
    expect(before["public.appointments"]?.rows).toBe(300);

    // Writers insert leads one after another (each a transaction: the lead and, by trigger, its tally row) while
    // the backup is taken; each counts what was acknowledged.
    const acknowledged = Array.from({ length: WRITERS }, () => 0);
    const load = { stop: false };
    const writers = acknowledged.map(async (_, writer) => {
      for (let i = 0; !load.stop; i++) {
        await appQuery(
          seedLeadsSql(`${LOAD_PREFIX}${writer}-${i}`, 0, 1).replace(
            `'${LOAD_PREFIX}${writer}-${i}-' || i || '@leads.example'`,
            `'${loadEmail(writer, i)}'`,
          ),
        );
        acknowledged[writer] = i + 1;
        // Requests reach a server through I/O: yield to it, or PGlite's in-process answers chain one insert to the
        // next in microtasks and no timer (nor the backup) ever runs.
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    while (acknowledged.some((count) => count < 20)) await sleep(5);

    const ackedBefore = [...acknowledged];
    const started = performance.now();
    const file = await layer.backup();
    const backupMs = performance.now() - started;
    const ackedAfter = [...acknowledged];
    // Writes went on during the backup (PGlite: around its checkpoint, and after its dump).
    while (acknowledged.some((count, writer) => count < ackedAfter[writer]! + 10)) await sleep(5);
    load.stop = true;
    await Promise.all(writers);
    console.info(
      `backup under load: ${Math.round(backupMs)} ms; acknowledged before ${ackedBefore}, after ${ackedAfter}`,
    );

    await closeDb();
    await layer.wipe();
    await layer.restore(file);
    const restored = await layer.openRestored();
    try {
      const after = await tableChecksums(restored.query, (table) =>
        table === "public.leads" ? `email not like '${LOAD_PREFIX}%'` : "true",
      );
      expect(Object.keys(after).toSorted()).toEqual(Object.keys(before).toSorted());
      // lead_tallies counts the load's leads too: checked against the restored leads below.
      for (const table of Object.keys(before).filter((name) => name !== "public.lead_tallies")) {
        expect({ table, ...after[table] }).toEqual({ table, ...before[table] });
      }

      // Each writer's rows: exactly its first k inserts, k between what was acknowledged before and after.
      for (let writer = 0; writer < WRITERS; writer++) {
        const rows = await restored.query(
          `select email from leads where email like '${LOAD_PREFIX}${writer}-%' order by email`,
        );
        expect(rows.length).toBeGreaterThanOrEqual(ackedBefore[writer]!);
        expect(rows.length).toBeLessThanOrEqual(ackedAfter[writer]! + 1);
        expect(rows.map((row) => row.email)).toEqual(
          Array.from({ length: rows.length }, (_, i) => loadEmail(writer, i)),
        );
      }
      // The tallies, kept by a trigger in each insert's transaction, match the leads: no transaction cut in two.
      const counted = await restored.query(
        "select level, status, count(*)::int as n from leads group by level, status order by level, status",
      );
      const tallies = await restored.query(
        "select level, status, n from lead_tallies where n > 0 order by level, status",
      );
      expect(tallies).toEqual(counted);
    } finally {
      await restored.close();
    }

    // The target is not empty now: a second restore is refused, and replaces it only when told.
    await expect(layer.restore(file)).rejects.toThrow(/no está vací[oa].*No se restauró nada.*--force/);
    await layer.restore(file, true);
    const again = await layer.openRestored();
    const [row] = await again.query(
      `select count(*)::int as n from leads where email not like '${LOAD_PREFIX}%'`,
    );
    await again.close();
    expect(row?.n).toBe(2_000);
  }, 120_000);
});

async function seedPrevious(query: Query) {
  await query(seedUsersSql("v"));
  await query(seedLeadsSql("v", 1, 500));
  await query(seedAppointmentsSql("v", 1, 50));
  await query(
    `insert into outbox (kind, idempotency_key, payload) values ('email', 'respaldo-1', '{"a": 1}'::jsonb)`,
  );
}

describe(`a backup of the previous schema version, restored and migrated (${layer.name})`, () => {
  it("brings the restored database to the newest migration with its data", async () => {
    const migrations = path.resolve("app/db/migrations");
    const journal = JSON.parse(readFileSync(path.join(migrations, "meta/_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    const newest = journal.entries.at(-1)!.tag;
    // The migrations folder as the previous version shipped it: every migration but the newest.
    const previous = path.join(work, "previous-migrations");
    cpSync(migrations, previous, { recursive: true });
    writeFileSync(
      path.join(previous, "meta/_journal.json"),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }),
    );
    rmSync(path.join(previous, `${newest}.sql`));

    const restored = await layer.restoreOfAnother(previous, seedPrevious);
    try {
      const count = "select count(*)::int as n from drizzle.__drizzle_migrations";
      expect((await restored.query(count))[0]?.n).toBe(journal.entries.length - 1);
      await restored.migrate(migrations);
      const [counts] = await restored.query(
        `select (select count(*)::int from leads) as leads, (select count(*)::int from appointments) as appointments,
           (select count(*)::int from drizzle.__drizzle_migrations) as migrations,
           (select count(*)::int from information_schema.columns
              where table_name = 'outbox' and column_name = 'ordering_key') as ordering_key,
           (select payload::text from outbox where idempotency_key = 'respaldo-1') as payload`,
      );
      expect(counts).toEqual({
        leads: 500,
        appointments: 50,
        migrations: journal.entries.length,
        ordering_key: 1,
        payload: '{"a": 1}',
      });
    } finally {
      await restored.close();
    }
  }, 120_000);
});

it("refuses a backup file that is not there", async () => {
  await expect(
    restorePglite(path.join(work, "no-existe.tar.gz"), path.join(work, "x")),
  ).rejects.toBeInstanceOf(BackupError);
  await expect(
    pgRestoreFromFile("postgres://127.0.0.1:1/nada", path.join(work, "no-existe.dump")),
  ).rejects.toThrow(/No existe el archivo de respaldo/);
});
