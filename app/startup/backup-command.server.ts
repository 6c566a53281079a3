import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import {
  BackupError,
  dumpPglite,
  embeddedDataDir,
  openPglite,
  pgDumpToFile,
  pgRestoreFromFile,
  restorePglite,
  writeFileDurably,
} from "~/db/backup.server";
import { backupFileName } from "~/domain/backups";
import { controlFilePath, type ControlFile } from "~/features/backups/backup-service.server";
import { backupDirectory, env } from "~/lib/base/env.server";

/*
 * `npm run backup` and `npm run restore -- FILE [--force]` (scripts/backup.mjs, scripts/restore.mjs; ADR 046), on
 * the database the app uses: DATABASE_URL (pg_dump / pg_restore) or the embedded PGlite under DATA_DIR. Embedded
 * and the server running: the server takes the backup (it holds the database); not running: this process opens the
 * data directory itself. A restore never runs beside a running server.
 */

type Write = (text: string) => void;
const stdout: Write = (text) => process.stdout.write(text);

const BACKUP_USAGE = "uso: npm run backup";
const RESTORE_USAGE = "uso: npm run restore -- ARCHIVO [--force]";

function mebibytes(bytes: number) {
  return `${(bytes / 1024 / 1024).toFixed(1).replace(".", ",")} MiB`;
}

/** The server named by `servidor.json`, when that process is alive. */
function runningServer(): ControlFile | undefined {
  const file = controlFilePath();
  if (!existsSync(file)) return undefined;
  let control: Partial<ControlFile>;
  try {
    control = JSON.parse(readFileSync(file, "utf8")) as Partial<ControlFile>;
  } catch {
    return undefined;
  }
  if (
    typeof control.pid !== "number" ||
    typeof control.port !== "number" ||
    typeof control.token !== "string"
  )
    return undefined;
  try {
    process.kill(control.pid, 0);
  } catch (error) {
    // EPERM: alive, someone else's. ESRCH: gone (a crash left the file behind).
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return undefined;
  }
  return control as ControlFile;
}

async function askServer(server: ControlFile, write: Write): Promise<number> {
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${server.port}/api/interno/respaldo`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}` },
      signal: AbortSignal.timeout(10 * 60_000),
    });
  } catch (error) {
    write(
      `El servidor (proceso ${server.pid}) está en marcha pero no respondió en 127.0.0.1:${server.port} ` +
        `(${error instanceof Error ? error.message : String(error)}). No se abrió la base de datos: pertenece a ese proceso.\n`,
    );
    return 1;
  }
  const body = (await response.json().catch(() => ({}))) as {
    file?: string;
    bytes?: number;
    ms?: number;
    error?: string;
  };
  if (!response.ok || !body.file) {
    write(`El servidor no tomó el respaldo: ${body.error ?? `respuesta ${response.status}`}\n`);
    return 1;
  }
  write(
    `Respaldo tomado por el servidor en marcha (proceso ${server.pid}), sin detenerlo: ${body.file} (${mebibytes(body.bytes ?? 0)}, ${body.ms} ms)\n`,
  );
  return 0;
}

export async function backupCommand(argv: readonly string[], write: Write = stdout): Promise<number> {
  if (argv.length > 0) {
    write(`Opción desconocida: ${argv.join(" ")}\n${BACKUP_USAGE}\n`);
    return 2;
  }
  const current = env();
  const dir = backupDirectory(current);
  if (!dir) {
    write(
      "La base de datos está en memoria (DATA_DIR=memory://) y no hay BACKUP_DIR: no hay nada que respaldar.\n",
    );
    return 2;
  }
  const started = performance.now();
  try {
    if (current.DATABASE_URL) {
      const file = path.join(dir, backupFileName("manual", new Date(), "dump"));
      await pgDumpToFile(current.DATABASE_URL, file);
      write(
        `Respaldo de PostgreSQL (pg_dump, formato personalizado): ${file} (${Math.round(performance.now() - started)} ms)\n`,
      );
      return 0;
    }
    if (current.DATA_DIR === "memory://") {
      write("La base de datos está en memoria (DATA_DIR=memory://): no hay nada que respaldar.\n");
      return 2;
    }
    const server = runningServer();
    if (server) return await askServer(server, write);
    const dataDir = embeddedDataDir(current.DATA_DIR);
    if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
      write(`No hay una base de datos en ${dataDir}: nada que respaldar.\n`);
      return 1;
    }
    const client = await openPglite(dataDir);
    let bytes: Uint8Array;
    try {
      bytes = await dumpPglite(client);
    } finally {
      await client.close();
    }
    const file = path.join(dir, backupFileName("manual", new Date(), "tar.gz"));
    await writeFileDurably(file, bytes);
    write(
      `Respaldo de la base integrada (servidor detenido): ${file} (${mebibytes(bytes.byteLength)}, ${Math.round(performance.now() - started)} ms)\n`,
    );
    return 0;
  } catch (error) {
    write(`No se pudo tomar el respaldo: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** The first bytes of a file: `PGDMP` (pg_dump custom format), gzip (1f 8b) or a tar. */
function fileKind(file: string): "pg_dump" | "tar" | "unknown" {
  const head = Buffer.alloc(512);
  const fd = openSync(file, "r");
  const read = readSync(fd, head, 0, 512, 0);
  closeSync(fd);
  if (head.subarray(0, 5).toString("latin1") === "PGDMP") return "pg_dump";
  if (head[0] === 0x1f && head[1] === 0x8b) return "tar";
  if (read >= 262 && head.subarray(257, 262).toString("latin1") === "ustar") return "tar";
  return "unknown";
}

export async function restoreCommand(argv: readonly string[], write: Write = stdout): Promise<number> {
  const force = argv.includes("--force");
  const rest = argv.filter((arg) => arg !== "--force");
  const unknown = rest.filter((arg) => arg.startsWith("-"));
  if (unknown.length > 0 || rest.length !== 1) {
    write(
      `${unknown.length > 0 ? `Opción desconocida: ${unknown.join(" ")}\n` : "Falta el archivo de respaldo (uno solo).\n"}${RESTORE_USAGE}\n`,
    );
    return 2;
  }
  const file = path.resolve(rest[0]!);
  if (!existsSync(file)) {
    write(`No existe el archivo de respaldo ${file}.\n`);
    return 2;
  }
  const current = env();
  const kind = fileKind(file);
  const started = performance.now();
  try {
    if (current.DATABASE_URL) {
      if (kind !== "pg_dump") {
        write(
          `${file} no es un respaldo de PostgreSQL (pg_dump -Fc). Un respaldo de la base integrada se restaura sin DATABASE_URL.\n`,
        );
        return 2;
      }
      await pgRestoreFromFile(current.DATABASE_URL, file, { force });
      write(
        `Respaldo restaurado en PostgreSQL (${Math.round(performance.now() - started)} ms). Al iniciar, la aplicación aplica las migraciones que falten.\n`,
      );
      return 0;
    }
    if (current.DATA_DIR === "memory://") {
      write("DATA_DIR=memory:// no es un directorio: indica dónde restaurar con DATA_DIR.\n");
      return 2;
    }
    if (kind !== "tar") {
      write(
        `${file} no es un respaldo de la base integrada (.tar.gz de PGlite). Un respaldo pg_dump se restaura con DATABASE_URL.\n`,
      );
      return 2;
    }
    const server = runningServer();
    if (server) {
      write(
        `El servidor está en marcha (proceso ${server.pid}) y tiene abierta la base de datos: detenlo antes de restaurar. No se cambió nada.\n`,
      );
      return 1;
    }
    const dataDir = embeddedDataDir(current.DATA_DIR);
    const { movedAside } = await restorePglite(file, dataDir, { force });
    if (movedAside) write(`La base de datos anterior se movió a ${movedAside} (no se borró).\n`);
    write(
      `Respaldo restaurado en ${dataDir} (${Math.round(performance.now() - started)} ms). Al iniciar, el servidor aplica las migraciones que falten.\n`,
    );
    return 0;
  } catch (error) {
    write(
      `${error instanceof BackupError ? error.message : `No se pudo restaurar: ${error instanceof Error ? error.message : String(error)}`}\n`,
    );
    return 1;
  }
}
