import { createHash } from "node:crypto";
import { and, desc, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { activeRoleNames } from "~/db/accounts.server";
import type { Database } from "~/db/client.server";
import { auditLog, dataExports, users } from "~/db/schema";
import {
  DATA_EXPORT_EXPIRED_MESSAGE,
  DATA_EXPORT_FAILED_MESSAGE,
  DATA_EXPORT_LEASE_MS,
  DATA_EXPORT_LIMIT_MESSAGE,
  DATA_EXPORT_MAX_ATTEMPTS,
  DATA_EXPORT_NOT_FOUND_MESSAGE,
  DATA_EXPORT_NOT_READY_MESSAGE,
  DATA_EXPORT_PACKING_STEP,
  DATA_EXPORT_QUEUED_STEP,
  dataExportStatusLabels,
  exportDocument,
  exportExpiresAt,
  exportFileName,
  exportLimitReached,
  exportProgress,
  exportReadme,
  exportSummary,
  formatFileSize,
  type ExportInput,
} from "~/domain/data-export";
import { formatClinicDateTime } from "~/domain/format";
import type { DataExportStatus } from "~/domain/privacy";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import type { DataExportView, ExportPanelData } from "./data-export-dto";
import { kickDataExportJob } from "./data-export-kick.server";
import { dataExportDownloadPath, dataExportStatusPath, myDataPathFor } from "./data-export-paths";
import { renderExportSummaryPdf } from "./data-export-pdf.server";
import { collectSubjectData, resolveSubject } from "./subject-data.server";

/**
 * Access and portability (Ley 21.719 arts. 5 and 9, ADR 037): an account holder asks for their data; a background job
 * builds a ZIP (`datos.json`, `resumen.pdf`, `LEEME.txt`) from every table of the data map, kept 7 days and
 * downloadable by its owner only. One export in flight per person, a few per day. Asked, built and downloaded are
 * written to the audit log.
 */

/** Who asks or downloads: for the audit log. */
export interface ExportRequester {
  roles?: readonly string[];
  ip?: string;
}

/** What the export's files say about the clinic (from `clinicFacts()`, passed in by the caller). */
export interface ExportClinic {
  name: string;
  privacyEmail: string;
  siteUrl: string;
}

/** An export's row without its file (which only the download reads). */
type ExportRow = Omit<typeof dataExports.$inferSelect, "file">;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 24 * 60 * 60_000;
const HISTORY_SHOWN = 10;

function view(row: ExportRow): DataExportView {
  const status = row.status as DataExportStatus;
  const ready = status === "ready";
  return {
    id: row.id,
    status,
    statusLabel: dataExportStatusLabels[status] ?? row.status,
    progress: ready ? 100 : row.progress,
    step: status === "queued" || status === "running" ? row.step : null,
    requestedAt: row.createdAt.toISOString(),
    requestedLabel: formatClinicDateTime(row.createdAt),
    expiresLabel: ready && row.expiresAt ? formatClinicDateTime(row.expiresAt) : null,
    sizeLabel: ready && row.bytes !== null ? formatFileSize(row.bytes) : null,
    message:
      status === "expired"
        ? DATA_EXPORT_EXPIRED_MESSAGE
        : status === "failed"
          ? DATA_EXPORT_FAILED_MESSAGE
          : null,
    statusUrl: dataExportStatusPath(row.id),
    downloadUrl: ready ? dataExportDownloadPath(row.id) : null,
  };
}

/** The columns a view needs: never the file. */
const viewColumns = {
  id: dataExports.id,
  userId: dataExports.userId,
  status: dataExports.status,
  progress: dataExports.progress,
  step: dataExports.step,
  fileName: dataExports.fileName,
  bytes: dataExports.bytes,
  sha256: dataExports.sha256,
  error: dataExports.error,
  attempts: dataExports.attempts,
  leaseUntil: dataExports.leaseUntil,
  startedAt: dataExports.startedAt,
  readyAt: dataExports.readyAt,
  expiresAt: dataExports.expiresAt,
  downloadCount: dataExports.downloadCount,
  lastDownloadedAt: dataExports.lastDownloadedAt,
  createdAt: dataExports.createdAt,
  updatedAt: dataExports.updatedAt,
};

/** The person's own export, or NOT_FOUND — the same answer for another person's id and for one that never existed. */
async function ownExport(db: Database, userId: string, exportId: string): Promise<ExportRow> {
  if (!UUID.test(exportId)) throw new AppError("NOT_FOUND", DATA_EXPORT_NOT_FOUND_MESSAGE);
  const [row] = await db
    .select(viewColumns)
    .from(dataExports)
    .where(and(eq(dataExports.id, exportId), eq(dataExports.userId, userId)));
  if (!row) throw new AppError("NOT_FOUND", DATA_EXPORT_NOT_FOUND_MESSAGE);
  return row;
}

/**
 * Asks for an export of the account's data. An export already queued or running is returned instead of a new one;
 * past the daily limit, RATE_LIMITED with a Spanish message. Audited; the job is rung after the commit.
 */
export async function requestExport(
  db: Database,
  userId: string,
  requester: ExportRequester = {},
  now = new Date(),
): Promise<DataExportView> {
  const { row, created } = await db.transaction(async (tx) => {
    // One request at a time per person: two clicks at once queue one export.
    const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    if (!owner) throw new AppError("NOT_FOUND", "No encontramos tu cuenta.");
    const [inFlight] = await tx
      .select(viewColumns)
      .from(dataExports)
      .where(and(eq(dataExports.userId, userId), inArray(dataExports.status, ["queued", "running"])))
      .orderBy(desc(dataExports.createdAt))
      .limit(1);
    if (inFlight) return { row: inFlight, created: false };
    const [recent] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(dataExports)
      .where(
        and(eq(dataExports.userId, userId), gte(dataExports.createdAt, new Date(now.getTime() - DAY_MS))),
      );
    if (exportLimitReached(Number(recent?.n ?? 0))) {
      throw new AppError("RATE_LIMITED", DATA_EXPORT_LIMIT_MESSAGE);
    }
    const [inserted] = await tx
      .insert(dataExports)
      .values({
        userId,
        status: "queued",
        progress: 0,
        step: DATA_EXPORT_QUEUED_STEP,
        createdAt: now,
        updatedAt: now,
      })
      .returning(viewColumns);
    await tx.insert(auditLog).values({
      actorId: userId,
      actorRoles: (requester.roles ?? []).join(","),
      action: "privacy.export_requested",
      targetUserId: userId,
      details: { exportId: inserted!.id },
      ip: requester.ip ?? null,
    });
    return { row: inserted!, created: true };
  });
  if (created) kickDataExportJob();
  return view(row);
}

/** The status of one of the person's own exports (the panel polls it). */
export async function exportStatus(db: Database, userId: string, exportId: string): Promise<DataExportView> {
  return view(await ownExport(db, userId, exportId));
}

export type ExportDownload =
  | { kind: "file"; fileName: string; body: Uint8Array }
  | { kind: "unavailable"; status: 409 | 410; message: string };

/**
 * The ZIP of one of the person's own exports, while it is ready; an expired, failed or unfinished one says why.
 * Each download is counted and audited.
 */
export async function downloadExport(
  db: Database,
  userId: string,
  exportId: string,
  requester: ExportRequester = {},
  now = new Date(),
): Promise<ExportDownload> {
  const row = await ownExport(db, userId, exportId);
  const expired =
    row.status === "expired" || (row.status === "ready" && row.expiresAt !== null && row.expiresAt <= now);
  if (expired) return { kind: "unavailable", status: 410, message: DATA_EXPORT_EXPIRED_MESSAGE };
  if (row.status === "failed")
    return { kind: "unavailable", status: 409, message: DATA_EXPORT_FAILED_MESSAGE };
  if (row.status !== "ready")
    return { kind: "unavailable", status: 409, message: DATA_EXPORT_NOT_READY_MESSAGE };
  return db.transaction(async (tx) => {
    const [file] = await tx
      .update(dataExports)
      .set({
        downloadCount: sql`${dataExports.downloadCount} + 1`,
        lastDownloadedAt: now,
        updatedAt: now,
      })
      .where(and(eq(dataExports.id, row.id), eq(dataExports.userId, userId), eq(dataExports.status, "ready")))
      .returning({ file: dataExports.file, fileName: dataExports.fileName });
    if (!file?.file) return { kind: "unavailable", status: 410, message: DATA_EXPORT_EXPIRED_MESSAGE };
    await tx.insert(auditLog).values({
      actorId: userId,
      actorRoles: (requester.roles ?? []).join(","),
      action: "privacy.export_downloaded",
      targetUserId: userId,
      details: { exportId: row.id },
      ip: requester.ip ?? null,
    });
    return { kind: "file", fileName: file.fileName ?? exportFileName(now), body: file.file };
  });
}

/** The person's exports, newest first (the last few). */
export async function listExports(db: Database, userId: string): Promise<DataExportView[]> {
  const rows = await db
    .select(viewColumns)
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.createdAt))
    .limit(HISTORY_SHOWN);
  return rows.map(view);
}

/** The loader data of the 'Descargar mis datos' panel (Mis Datos, for patients and staff alike). */
export async function loadExportPanel(
  db: Database,
  userId: string,
  now = new Date(),
): Promise<ExportPanelData> {
  const exports = await listExports(db, userId);
  const active = exports.find((item) => item.status === "queued" || item.status === "running") ?? null;
  const [recent] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), gte(dataExports.createdAt, new Date(now.getTime() - DAY_MS))));
  const limited = !active && exportLimitReached(Number(recent?.n ?? 0));
  return { exports, active, canRequest: !limited, limitMessage: limited ? DATA_EXPORT_LIMIT_MESSAGE : null };
}

// ---------------------------------------------------------------------------------------------------------------
// The build (run by jobs/data-exports.server.ts)

interface Claim {
  id: string;
  userId: string;
  /** The claim's attempt number: the fence that tells whether the export is still ours. */
  attempts: number;
}

/** Another build took the export over (our lease ran out): this build stops without writing. */
class LostClaim extends Error {}

/**
 * Claims the oldest export waiting to be built — queued, or running with its lease run out (a build that crashed) —
 * with FOR UPDATE SKIP LOCKED, so two instances never build the same one. One tried too often is marked failed.
 */
export async function claimNextExport(db: Database, now = new Date()): Promise<Claim | null> {
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: dataExports.id, userId: dataExports.userId, attempts: dataExports.attempts })
      .from(dataExports)
      .where(
        or(
          eq(dataExports.status, "queued"),
          and(eq(dataExports.status, "running"), lte(dataExports.leaseUntil, now)),
        ),
      )
      .orderBy(dataExports.createdAt)
      .limit(1)
      .for("update", { skipLocked: true });
    if (!next) return null;
    if (next.attempts >= DATA_EXPORT_MAX_ATTEMPTS) {
      await tx
        .update(dataExports)
        .set({ status: "failed", step: null, leaseUntil: null, error: "too many attempts", updatedAt: now })
        .where(eq(dataExports.id, next.id));
      return { ...next, attempts: -1 };
    }
    const attempts = next.attempts + 1;
    await tx
      .update(dataExports)
      .set({
        status: "running",
        attempts,
        progress: 0,
        step: DATA_EXPORT_QUEUED_STEP,
        leaseUntil: new Date(now.getTime() + DATA_EXPORT_LEASE_MS),
        startedAt: now,
        updatedAt: now,
      })
      .where(eq(dataExports.id, next.id));
    return { ...next, attempts };
  });
}

export interface BuildOptions {
  clinic: ExportClinic;
  /** A pause after each table (DATA_EXPORT_PACE_MS). */
  paceMs?: number;
  /** Stops between tables when the process is stopping (the claim's lease then hands the export to a later run). */
  stopping?: () => boolean;
  now?: () => Date;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reports progress and renews the lease, only while the export is still ours. */
async function heartbeat(db: Database, claim: Claim, progress: number, step: string, now: Date) {
  const [ours] = await db
    .update(dataExports)
    .set({ progress, step, leaseUntil: new Date(now.getTime() + DATA_EXPORT_LEASE_MS), updatedAt: now })
    .where(
      and(
        eq(dataExports.id, claim.id),
        eq(dataExports.status, "running"),
        eq(dataExports.attempts, claim.attempts),
      ),
    )
    .returning({ id: dataExports.id });
  if (!ours) throw new LostClaim();
}

/** The ZIP's bytes: `datos.json`, `resumen.pdf` and `LEEME.txt`. */
export async function buildExportArchive(input: ExportInput, clinicName: string): Promise<Uint8Array> {
  const json = JSON.stringify(exportDocument(input), null, 2);
  const pdf = await renderExportSummaryPdf(exportSummary(input), {
    clinicName,
    generatedAt: input.generatedAt,
  });
  const mtime = input.generatedAt;
  return zipSync(
    {
      "datos.json": [strToU8(json), { mtime }],
      "resumen.pdf": [new Uint8Array(pdf), { mtime, level: 0 }],
      "LEEME.txt": [strToU8(exportReadme(input)), { mtime }],
    },
    { level: 6 },
  );
}

/** Builds one claimed export: reads every table (progress per table), writes the ZIP, and marks it ready. */
export async function buildClaimedExport(
  db: Database,
  claim: Claim,
  options: BuildOptions,
): Promise<boolean> {
  const clock = options.now ?? (() => new Date());
  try {
    const [owner] = await db
      .select({
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(users)
      .where(eq(users.id, claim.userId));
    if (!owner) throw new Error("the export's account is gone");
    const roles = await activeRoleNames(db, claim.userId);
    const subject = await resolveSubject(db, { userId: claim.userId });
    const tables = await collectSubjectData(db, subject, async (done, total, label) => {
      if (options.stopping?.()) throw new LostClaim();
      await heartbeat(db, claim, exportProgress(done, total), label, clock());
      if (options.paceMs) await sleep(options.paceMs);
    });
    await heartbeat(db, claim, 95, DATA_EXPORT_PACKING_STEP, clock());
    const builtAt = clock();
    const body = await buildExportArchive(
      {
        clinic: options.clinic,
        person: {
          userId: claim.userId,
          name: `${owner.firstName} ${owner.lastName}`.trim(),
          email: owner.email,
        },
        generatedAt: builtAt,
        tables,
        myDataPath: myDataPathFor(roles),
      },
      options.clinic.name,
    );
    return await db.transaction(async (tx) => {
      const [done] = await tx
        .update(dataExports)
        .set({
          status: "ready",
          progress: 100,
          step: null,
          file: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
          bytes: body.byteLength,
          sha256: createHash("sha256").update(body).digest("hex"),
          fileName: exportFileName(builtAt),
          error: null,
          leaseUntil: null,
          readyAt: builtAt,
          expiresAt: exportExpiresAt(builtAt),
          updatedAt: builtAt,
        })
        .where(
          and(
            eq(dataExports.id, claim.id),
            eq(dataExports.status, "running"),
            eq(dataExports.attempts, claim.attempts),
          ),
        )
        .returning({ id: dataExports.id });
      if (!done) return false;
      await tx.insert(auditLog).values({
        actorId: null,
        actorRoles: "",
        action: "privacy.export_built",
        targetUserId: claim.userId,
        details: {
          exportId: claim.id,
          bytes: body.byteLength,
          tables: tables.filter((t) => t.rows.length > 0).length,
        },
        ip: null,
      });
      return true;
    });
  } catch (error) {
    if (error instanceof LostClaim) return false;
    const last = claim.attempts >= DATA_EXPORT_MAX_ATTEMPTS;
    // The message only: no personal data in logs (DESIGN §6).
    const message = error instanceof Error ? error.message : String(error);
    logger.warn(
      { exportId: claim.id, attempts: claim.attempts, failed: last, err: message },
      "data export build failed",
    );
    await db
      .update(dataExports)
      .set({
        status: last ? "failed" : "queued",
        step: last ? null : DATA_EXPORT_QUEUED_STEP,
        progress: 0,
        error: message.slice(0, 500),
        leaseUntil: null,
        updatedAt: clock(),
      })
      .where(
        and(
          eq(dataExports.id, claim.id),
          eq(dataExports.status, "running"),
          eq(dataExports.attempts, claim.attempts),
        ),
      );
    return false;
  }
}

/** Ready exports past their 7 days: expired, file dropped. */
export async function expireExports(db: Database, now = new Date()): Promise<number> {
  const rows = await db
    .update(dataExports)
    .set({ status: "expired", file: null, step: null, updatedAt: now })
    .where(and(eq(dataExports.status, "ready"), lte(dataExports.expiresAt, now)))
    .returning({ id: dataExports.id });
  return rows.length;
}

/** One pass of the job: expires what is due, then builds what is waiting, one at a time. Returns how many it built. */
export async function runDataExports(db: Database, options: BuildOptions): Promise<number> {
  const clock = options.now ?? (() => new Date());
  await expireExports(db, clock());
  let built = 0;
  while (!options.stopping?.()) {
    const claim = await claimNextExport(db, clock());
    if (!claim) break;
    if (claim.attempts < 0) continue;
    if (await buildClaimedExport(db, claim, options)) built += 1;
  }
  return built;
}
