import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gzip as gzipCallback } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import pg from "pg";

/*
 * Backups and restores of the database (issue 25, ADR 046): the embedded PGlite's data directory as a gzipped tar
 * (PGlite's own dump), PostgreSQL as a `pg_dump -Fc` file. No env, no app handle: the running server, the
 * command-line commands and the tests call these with what they have.
 */

const gzip = promisify(gzipCallback);

/** The extensions the migrations create (0001 btree_gist, 0013 pg_trgm, unaccent, btree_gin): PGlite loads only these. */
export const PGLITE_EXTENSIONS = { btree_gin, btree_gist, pg_trgm, unaccent };

/** Where the embedded database lives under DATA_DIR. */
export function embeddedDataDir(dataDirSetting: string): string {
  return path.resolve(dataDirSetting, "pglite");
}

/** A failure the commands print as it is (Spanish, for the person running them). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/**
 * A consistent copy of a running PGlite's data directory, gzipped. A checkpoint first (less WAL to replay on restore),
 * then the copy while no transaction is open and no query runs: PGlite runs one query at a time, and holding its
 * transaction lock keeps an open BEGIN…COMMIT from being cut in two. What the files hold at that point is what a crash
 * would leave, which PostgreSQL's recovery makes consistent on restore; queries wait for the copy of the
 * files (at most 28 ms seen with 100,000 leads, npm run bench:backup), not for its compression.
 */
export async function dumpPglite(client: PGlite): Promise<Uint8Array> {
  await client.exec("checkpoint");
  // The tar is taken under the lock; the compression, off the main thread, after it: queries wait for the copy only.
  const blob = await client._runExclusiveTransaction(() => client.dumpDataDir("none"));
  return gzip(new Uint8Array(await blob.arrayBuffer()), { level: 6 });
}

/** Writes beside the target, flushes to disk, then renames: a crash mid-write never leaves a truncated backup. */
export async function writeFileDurably(file: string, bytes: Uint8Array): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.parcial`;
  const handle = await open(partial, "w", 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(partial, file);
  // The rename itself lives in the directory: flush it too (best effort, not every platform allows it).
  const directory = await open(path.dirname(file), "r").catch(() => undefined);
  await directory?.sync().catch(() => {});
  await directory?.close();
}

/** Whether a directory holds anything at all (a missing one holds nothing). */
export function directoryHasFiles(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).length > 0;
}

/** Opens (and so creates or recovers) an embedded database in `dataDir`. */
export function openPglite(dataDir: string, loadDataDir?: Blob): Promise<PGlite> {
  mkdirSync(dataDir, { recursive: true });
  return PGlite.create({
    dataDir,
    ...(loadDataDir ? { loadDataDir } : {}),
    postgresqlconf: ["shared_buffers = 16MB"],
    extensions: PGLITE_EXTENSIONS,
  });
}

export interface RestoreOptions {
  force?: boolean;
  now?: Date;
}

/**
 * Restores an embedded backup (a PGlite dump, .tar or .tar.gz) into `dataDir`, which must be empty or missing. With
 * `force`, a non-empty one is moved aside first (to `<dataDir>.antes-de-restaurar-<instant>`, never deleted) and its
 * new path answered. The restored database is opened once, so that PostgreSQL's recovery runs now rather than at the
 * server's next start, and a broken file fails here.
 */
export async function restorePglite(
  file: string,
  dataDir: string,
  options: RestoreOptions = {},
): Promise<{ movedAside?: string }> {
  if (!existsSync(file)) throw new BackupError(`No existe el archivo de respaldo ${file}.`);
  let movedAside: string | undefined;
  if (directoryHasFiles(dataDir)) {
    if (!options.force) {
      throw new BackupError(
        `El directorio de datos ${dataDir} no está vacío: ya tiene una base de datos. No se restauró nada. ` +
          "Para reemplazarla, detén el servidor y repite con --force (la base actual se mueve a un lado, no se borra).",
      );
    }
    const stamp = (options.now ?? new Date())
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}Z$/, "Z");
    movedAside = `${dataDir}.antes-de-restaurar-${stamp}`;
    renameSync(dataDir, movedAside);
  }
  const bytes = readFileSync(file);
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const blob = new Blob([bytes], { type: gzipped ? "application/x-gzip" : "application/x-tar" });
  let client: PGlite | undefined;
  try {
    client = await openPglite(dataDir, blob);
    await client.query("select 1");
    await client.exec("checkpoint");
  } catch (error) {
    await client?.close().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
    if (movedAside) renameSync(movedAside, dataDir);
    throw new BackupError(
      `No se pudo restaurar ${file}: ${error instanceof Error ? error.message : String(error)}. ` +
        (movedAside ? "La base anterior quedó en su lugar." : "El directorio de datos quedó vacío."),
    );
  }
  await client.close();
  return movedAside ? { movedAside } : {};
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === "ENOENT"
            ? `No se encontró ${command}: instala el cliente de PostgreSQL (p. ej. apt install postgresql-client) de la misma versión que el servidor o una más nueva.`
            : `${command} no pudo ejecutarse: ${error.message}`,
        ),
      ),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} terminó con el código ${code}: ${stderr.trim()}`)),
    );
  });
}

/**
 * `pg_dump -Fc` of the database at `url` into `file` (written beside it, then renamed). pg_dump reads one snapshot
 * of the whole database while the app goes on writing: the backup is consistent without stopping anything.
 */
export async function pgDumpToFile(url: string, file: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.parcial`;
  try {
    await run("pg_dump", [
      "--format=custom",
      "--no-owner",
      "--no-privileges",
      "--file",
      partial,
      "--dbname",
      url,
    ]);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, file);
}

/** The tables the database holds outside PostgreSQL's own schemas (the app's, the migrator's, any other). */
export async function postgresTableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      `select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
         and n.nspname not like 'pg\\_%'`,
    );
    return Number(rows[0]?.count ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * Restores a `pg_dump -Fc` file into the database at `url`, which must hold no table. With `force`, what the backup
 * holds replaces what is there (pg_restore --clean). All in one transaction: a failure leaves the database as it was.
 */
export async function pgRestoreFromFile(
  url: string,
  file: string,
  options: RestoreOptions = {},
): Promise<void> {
  if (!existsSync(file)) throw new BackupError(`No existe el archivo de respaldo ${file}.`);
  const tables = await postgresTableCount(url);
  if (tables > 0 && !options.force) {
    throw new BackupError(
      `La base de datos de destino no está vacía (${tables} ${tables === 1 ? "tabla" : "tablas"}). No se restauró nada. ` +
        "Para reemplazar su contenido por el del respaldo, detén la aplicación y repite con --force.",
    );
  }
  await run("pg_restore", [
    "--no-owner",
    "--no-privileges",
    "--single-transaction",
    "--exit-on-error",
    ...(tables > 0 ? ["--clean", "--if-exists"] : []),
    "--dbname",
    url,
    file,
  ]);
}
