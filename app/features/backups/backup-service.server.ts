import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { writeFileDurably } from "~/db/backup.server";
import { dumpEmbeddedDatabase } from "~/db/client.server";
import { backupFileName, backupsToDelete, dailyBackupDue, type BackupKind } from "~/domain/backups";
import { backupDirectory, env, type Env } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { clientIp } from "~/lib/client-ip.server";

/*
 * Backups of the embedded database taken by the server that holds it (ADR 046): PGlite belongs to one process, so
 * the daily job and `npm run backup` (through POST /api/interno/respaldo) both go through this process's handle.
 */

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
  deleted: string[];
}

/** Whether this process serves an embedded database on disk (the only kind it backs up itself). */
export function embeddedOnDisk(current: Env = env()): boolean {
  return !current.DATABASE_URL && current.DATA_DIR !== "memory://";
}

function listBackups(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/**
 * Dumps the embedded database into BACKUP_DIR as `clinica-<kind>-<instant>.tar.gz`, then deletes the daily backups
 * beyond BACKUP_KEEP (manual ones are the operator's to delete).
 */
export async function takeEmbeddedBackup(kind: BackupKind, now = new Date()): Promise<BackupResult> {
  const current = env();
  const dir = backupDirectory(current);
  if (!dir) throw new Error("no backup directory: set BACKUP_DIR");
  const started = performance.now();
  const bytes = await dumpEmbeddedDatabase();
  const file = path.join(dir, backupFileName(kind, now, "tar.gz"));
  await writeFileDurably(file, bytes);
  const deleted = backupsToDelete(listBackups(dir), current.BACKUP_KEEP);
  for (const name of deleted) await rm(path.join(dir, name), { force: true });
  const result = { file, bytes: bytes.byteLength, ms: Math.round(performance.now() - started), deleted };
  logger.info({ file, bytes: result.bytes, ms: result.ms, deleted: deleted.length }, "backup written");
  return result;
}

/** The daily job's look: a daily backup when none was taken on today's clinic day; null when not due. */
export async function runDailyBackup(now = new Date()): Promise<BackupResult | null> {
  const current = env();
  const dir = backupDirectory(current);
  if (!embeddedOnDisk(current) || !dir) return null;
  if (!dailyBackupDue(listBackups(dir), now)) return null;
  return takeEmbeddedBackup("diario", now);
}

/*
 * How `npm run backup` finds the running server: `servidor.json` under DATA_DIR (mode 0600) names its process, port
 * and a token made at start. Reading it takes the same access as reading the database files themselves, so the
 * token adds no new way in; the endpoint also answers only to loopback.
 */

const holder = globalThis as typeof globalThis & { __clinicaBackupToken?: string };

export const CONTROL_FILE = "servidor.json";

export interface ControlFile {
  pid: number;
  port: number;
  token: string;
}

export function controlFilePath(current: Env = env()): string {
  return path.resolve(current.DATA_DIR, CONTROL_FILE);
}

/** Writes `servidor.json` for this process (embedded database on disk only). */
export function publishBackupControl(current: Env = env()): void {
  if (!embeddedOnDisk(current)) return;
  const token = (holder.__clinicaBackupToken ??= randomBytes(32).toString("base64url"));
  const control: ControlFile = { pid: process.pid, port: current.PORT, token };
  mkdirSync(path.resolve(current.DATA_DIR), { recursive: true });
  writeFileSync(controlFilePath(current), `${JSON.stringify(control)}\n`, { mode: 0o600 });
}

/** Removes `servidor.json` at shutdown, if it is still this process's. */
export function withdrawBackupControl(current: Env = env()): void {
  if (!holder.__clinicaBackupToken || !embeddedOnDisk(current)) return;
  const file = controlFilePath(current);
  try {
    const control = JSON.parse(readFileSync(file, "utf8")) as Partial<ControlFile>;
    if (control.pid === process.pid) rmSync(file, { force: true });
  } catch {
    // Already gone, or not ours to remove.
  }
}

/** Whether `token` is this process's backup token (constant time). */
export function isBackupToken(token: string | null | undefined): boolean {
  const expected = holder.__clinicaBackupToken;
  if (!expected || !token) return false;
  const a = Buffer.from(token);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * POST /api/interno/respaldo (`npm run backup` while the server runs): from loopback, with this process's token as
 * a bearer, on an embedded database on disk; a manual backup is taken and its path answered.
 */
export async function backupRequest(request: Request): Promise<Response> {
  const headers = { "Cache-Control": "no-store" };
  const authorization = request.headers.get("authorization") ?? "";
  const token = authorization.startsWith("Bearer ") ? authorization.slice("Bearer ".length) : null;
  if (!LOOPBACK.has(clientIp(request)) || !isBackupToken(token)) {
    return Response.json({ error: "No autorizado." }, { status: 403, headers });
  }
  if (!embeddedOnDisk()) {
    return Response.json(
      { error: "Este servidor no usa la base de datos integrada en disco: no hay respaldo que tomar aquí." },
      { status: 409, headers },
    );
  }
  const result = await takeEmbeddedBackup("manual");
  return Response.json(result, { headers });
}
