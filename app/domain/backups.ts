import { clinicDate } from "./clinic-time";

/**
 * Backups (issue 25, ADR 046): how a backup file is named, which automatic backups the daily job keeps, and when the
 * next one is due. A name carries its kind and its instant (UTC, to the second), so the directory listing is all the
 * state the job needs: no table, and a backup copied elsewhere and back is still recognised.
 */

/** `diario`: taken by the daily job, pruned to the last BACKUP_KEEP; `manual`: `npm run backup`, never pruned. */
export type BackupKind = "diario" | "manual";
/** `tar.gz`: the embedded database's data directory (PGlite's dump); `dump`: `pg_dump -Fc` of PostgreSQL. */
export type BackupFormat = "tar.gz" | "dump";

export interface BackupName {
  name: string;
  kind: BackupKind;
  format: BackupFormat;
  takenAt: Date;
}

const NAME = /^clinica-(diario|manual)-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.(tar\.gz|dump)$/;

export const DEFAULT_BACKUP_KEEP = 14;

/** e.g. `clinica-diario-20271103T060000Z.tar.gz`: sorts by time within a kind. */
export function backupFileName(kind: BackupKind, takenAt: Date, format: BackupFormat): string {
  const stamp = takenAt
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
  return `clinica-${kind}-${stamp}.${format}`;
}

/** The kind, format and instant of a file named by backupFileName; null for any other file. */
export function parseBackupName(name: string): BackupName | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [, kind, year, month, day, hour, minute, second, format] = match;
  const takenAt = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  // A calendar-impossible stamp (e.g. the 31st of April) would roll over: it is not one of ours.
  if (
    Number.isNaN(takenAt.getTime()) ||
    backupFileName(kind as BackupKind, takenAt, format as BackupFormat) !== name
  )
    return null;
  return { name, kind: kind as BackupKind, format: format as BackupFormat, takenAt };
}

/** The daily backups to delete so that the newest `keep` remain; manual backups and other files are never listed. */
export function backupsToDelete(names: readonly string[], keep: number): string[] {
  if (!Number.isInteger(keep) || keep < 1) throw new RangeError("keep must be a positive integer");
  const daily = names
    .map(parseBackupName)
    .filter((backup): backup is BackupName => backup?.kind === "diario")
    .toSorted((a, b) => b.takenAt.getTime() - a.takenAt.getTime() || b.name.localeCompare(a.name));
  return daily.slice(keep).map((backup) => backup.name);
}

/** A daily backup is due when none was taken on the clinic's calendar day (America/Santiago) of `now`. */
export function dailyBackupDue(names: readonly string[], now: Date): boolean {
  const today = clinicDate(now);
  return !names.some((name) => {
    const backup = parseBackupName(name);
    return backup?.kind === "diario" && clinicDate(backup.takenAt) === today;
  });
}
