import { createHash, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, type Database } from "~/db/client.server";
import { auditLog, dataExports } from "~/db/schema";
import {
  DATA_EXPORT_EXPIRED_MESSAGE,
  DATA_EXPORT_LEASE_MS,
  DATA_EXPORT_LIMIT_MESSAGE,
  DATA_EXPORT_MAX_ATTEMPTS,
  DATA_EXPORTS_PER_DAY,
} from "~/domain/data-export";
import type { DataExportView } from "~/features/privacy/data-export-dto";
import {
  buildClaimedExport,
  claimNextExport,
  loadExportPanel,
  requestExport,
  runDataExports,
} from "~/features/privacy/data-export-service.server";
import { loader as downloadLoader } from "~/routes/_account/data-export-download";
import { loader as statusLoader } from "~/routes/_account/data-export-status";
import { action as startAction } from "~/routes/_account/data-exports";
import { postAs, requestAs } from "../setup/clients";
import { createStaffMember, createTestUser, type TestUser } from "../setup/factories";
import { pdfText } from "../setup/pdf-text";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";

/**
 * 'Descargar mis datos' (access and portability, ADR 037): asking, the background build and its lease, and the
 * routes that give a person their own export and nobody else's.
 */

const CLINIC = {
  name: "Río Clínica",
  privacyEmail: "privacidad@clinica.example",
  siteUrl: "https://clinica.example",
};

let db: Database;

beforeAll(async () => {
  db = await getDb();
});
afterAll(closeDb);

async function exportRow(id: string) {
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, id));
  return row!;
}

async function auditCount(action: string, exportId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), sql`${auditLog.details}->>'exportId' = ${exportId}`));
  return Number(row?.n ?? 0);
}

/** Builds whatever is queued, as the job does. */
function build(now?: Date) {
  return runDataExports(db, { clinic: CLINIC, ...(now ? { now: () => now } : {}) });
}

function status(user: TestUser | undefined, exportId: string) {
  const path = `/mis-datos/exportaciones/${exportId}`;
  return settle<DataExportView & { message?: string }>(() =>
    statusLoader(routeArgs(requestAs(user?.cookie, path), { exportId })),
  );
}

function download(user: TestUser | undefined, exportId: string) {
  const path = `/mis-datos/exportaciones/${exportId}/descarga`;
  return settle<{ message?: string }>(() =>
    downloadLoader(routeArgs(requestAs(user?.cookie, path), { exportId })),
  );
}

/** A download's raw bytes (settle() reads bodies as text). */
async function downloadBytes(user: TestUser, exportId: string): Promise<Response> {
  const path = `/mis-datos/exportaciones/${exportId}/descarga`;
  return (await downloadLoader(routeArgs(requestAs(user.cookie, path), { exportId }))) as Response;
}

describe("asking for an export", () => {
  it("queues one export per person from the form, audited, and a second click finds the same one", async () => {
    const ana = await createTestUser({ firstName: "Ana" });
    const first = await settle(() =>
      startAction(routeArgs(postAs(ana.cookie, "/mis-datos/exportaciones", { returnTo: "/paciente/datos" }))),
    );
    expect({ status: first.status, location: first.location }).toEqual({
      status: 303,
      location: "/paciente/datos",
    });
    const again = await settle(() =>
      startAction(routeArgs(postAs(ana.cookie, "/mis-datos/exportaciones", {}))),
    );
    // Without a page to go back to, the account's own Mis Datos.
    expect(again.location).toBe("/paciente/datos");

    const rows = await db.select().from(dataExports).where(eq(dataExports.userId, ana.id));
    expect(rows.map((row) => row.status)).toEqual(["queued"]);
    expect(await auditCount("privacy.export_requested", rows[0]!.id)).toBe(1);
    const panel = await loadExportPanel(db, ana.id);
    expect(panel.active).toMatchObject({ id: rows[0]!.id, status: "queued", progress: 0, downloadUrl: null });
    expect(panel.canRequest).toBe(true);
  });

  it("sends a staff account back to /cuenta/datos, and refuses any other return address", async () => {
    const asesor = await createStaffMember(["asesor"]);
    const back = await settle(() =>
      startAction(routeArgs(postAs(asesor.cookie, "/mis-datos/exportaciones", {}))),
    );
    expect(back.location).toBe("/cuenta/datos");
    const attack = await settle(() =>
      startAction(
        routeArgs(
          postAs(asesor.cookie, "/mis-datos/exportaciones", {
            returnTo: "https://evil.example/paciente/datos",
          }),
        ),
      ),
    );
    expect(attack.status).toBe(400);
  });

  it(`allows ${DATA_EXPORTS_PER_DAY} a day, then says so in Spanish`, async () => {
    const beto = await createTestUser({ firstName: "Beto" });
    for (let i = 0; i < DATA_EXPORTS_PER_DAY; i++) {
      await requestExport(db, beto.id);
      await build();
    }
    await expect(requestExport(db, beto.id)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      message: DATA_EXPORT_LIMIT_MESSAGE,
    });
    // The form post still lands on the page, which states the limit.
    const post = await settle(() =>
      startAction(routeArgs(postAs(beto.cookie, "/mis-datos/exportaciones", {}))),
    );
    expect(post.status).toBe(303);
    const panel = await loadExportPanel(db, beto.id);
    expect(panel).toMatchObject({ canRequest: false, limitMessage: DATA_EXPORT_LIMIT_MESSAGE, active: null });
    expect(panel.exports).toHaveLength(DATA_EXPORTS_PER_DAY);
    // A day later it may ask again.
    await expect(
      requestExport(db, beto.id, {}, new Date(Date.now() + 25 * 3_600_000)),
    ).resolves.toMatchObject({
      status: "queued",
    });
  });
});

describe("the build", () => {
  it("writes a ZIP with datos.json, resumen.pdf and LEEME.txt, ready for 7 days, audited", async () => {
    const carla = await createTestUser({ firstName: "Carla" });
    const asked = await requestExport(db, carla.id);
    const builtAt = new Date("2026-03-14T15:30:00Z");
    await build(builtAt);

    const row = await exportRow(asked.id);
    expect(row).toMatchObject({
      status: "ready",
      progress: 100,
      step: null,
      attempts: 1,
      fileName: "datos-2026-03-14.zip",
    });
    expect(row.expiresAt!.toISOString()).toBe("2026-03-21T15:30:00.000Z");
    expect(row.sha256).toBe(createHash("sha256").update(row.file!).digest("hex"));
    expect(await auditCount("privacy.export_built", asked.id)).toBe(1);

    const files = unzipSync(new Uint8Array(row.file!));
    const doc = JSON.parse(strFromU8(files["datos.json"]!)) as {
      titular: { correo: string };
      tablas: unknown[];
    };
    expect(doc.titular.correo).toBe(carla.email);
    expect(strFromU8(files["resumen.pdf"]!.subarray(0, 5))).toBe("%PDF-");
    const pdf = pdfText(Buffer.from(files["resumen.pdf"]!));
    expect(pdf).toContain(`Titular: Carla Test (${carla.email}).`);
    expect(pdf).toContain("Generado el 14 de marzo de 2026 a las 12:30 (hora de Santiago de Chile)");
    expect(pdf).toContain("Tus derechos y cómo ejercerlos");
    expect(pdf).toContain("Cuenta y perfil");
    expect(strFromU8(files["LEEME.txt"]!)).toContain("7 días");

    const shown = await status(carla, asked.id);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      status: "ready",
      progress: 100,
      downloadUrl: `/mis-datos/exportaciones/${asked.id}/descarga`,
      expiresLabel: "21 de marzo de 2026 a las 12:30",
    });
    expect(JSON.stringify(shown.body)).not.toContain("file");
  });

  it("builds each export once when two workers run at the same time", async () => {
    const people = await Promise.all(
      ["Dora", "Elsa", "Fabio"].map((firstName) => createTestUser({ firstName })),
    );
    const asked = [];
    for (const person of people) asked.push(await requestExport(db, person.id));
    const [one, two] = await Promise.all([build(), build()]);
    // Both built something or one built all; never the same export twice (attempts and audit rows below).
    expect(one! + two!).toBeGreaterThanOrEqual(3);
    for (const item of asked) {
      expect(await exportRow(item.id)).toMatchObject({ status: "ready", attempts: 1 });
      expect(await auditCount("privacy.export_built", item.id)).toBe(1);
    }
  });

  it("retries a build that crashed once its lease runs out, and a build that lost its claim writes nothing", async () => {
    const gabi = await createTestUser({ firstName: "Gabi" });
    const asked = await requestExport(db, gabi.id);
    const now = new Date();
    // A worker claims it and dies.
    const crashed = await claimNextExport(db, now);
    expect(crashed).toMatchObject({ id: asked.id, attempts: 1 });
    await build(new Date(now.getTime() + 1_000));
    expect(await exportRow(asked.id)).toMatchObject({ status: "running", attempts: 1 });
    // After its lease another worker takes it over.
    const later = new Date(now.getTime() + DATA_EXPORT_LEASE_MS + 1_000);
    await build(later);
    expect(await exportRow(asked.id)).toMatchObject({ status: "ready", attempts: 2 });
    // The first worker wakes up: its claim is stale, it changes nothing.
    const before = await exportRow(asked.id);
    expect(await buildClaimedExport(db, crashed!, { clinic: CLINIC })).toBe(false);
    const after = await exportRow(asked.id);
    expect(after.sha256).toBe(before.sha256);
    expect(await auditCount("privacy.export_built", asked.id)).toBe(1);
  });

  it(`marks an export failed after ${DATA_EXPORT_MAX_ATTEMPTS} attempts`, async () => {
    const hugo = await createTestUser({ firstName: "Hugo" });
    const asked = await requestExport(db, hugo.id);
    await db
      .update(dataExports)
      .set({ status: "running", attempts: DATA_EXPORT_MAX_ATTEMPTS, leaseUntil: new Date(0) })
      .where(eq(dataExports.id, asked.id));
    await build();
    expect(await exportRow(asked.id)).toMatchObject({ status: "failed", leaseUntil: null });
    const shown = await status(hugo, asked.id);
    expect(shown.body).toMatchObject({
      status: "failed",
      statusLabel: "No se pudo preparar",
      downloadUrl: null,
    });
    // A failed export is not in flight: the person may ask again.
    await expect(requestExport(db, hugo.id)).resolves.toMatchObject({ status: "queued" });
  });
});

describe("only the owner reads and downloads an export", () => {
  let owner: TestUser;
  let attacker: TestUser;
  let exportId: string;

  beforeAll(async () => {
    owner = await createTestUser({ firstName: "Inés" });
    attacker = await createTestUser({ firstName: "Jaime" });
    exportId = (await requestExport(db, owner.id)).id;
    await build();
  });

  it("gives the owner the ZIP as datos-<fecha>.zip, counted and audited", async () => {
    const response = await downloadBytes(owner, exportId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="datos-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(strFromU8(files["datos.json"]!)).toContain(owner.email);
    expect((await exportRow(exportId)).downloadCount).toBe(1);
    expect(await auditCount("privacy.export_downloaded", exportId)).toBe(1);
  });

  it("answers another patient who asks for the owner's export's status 404, revealing nothing", async () => {
    const attack = await status(attacker, exportId);
    expect(attack.status).toBe(404);
    expect(JSON.stringify(attack.body)).not.toContain(owner.email);
    expect(attack.body).toEqual({ message: "No encontramos esa descarga." });
    // The same answer as an id that never existed, and as garbage.
    expect((await status(attacker, randomUUID())).body).toEqual(attack.body);
    expect((await status(attacker, "1 OR 1=1")).status).toBe(404);
  });

  it("answers another patient who tries to download the owner's export 404: no file, not counted", async () => {
    const before = await exportRow(exportId);
    const attack = await download(attacker, exportId);
    expect(attack.status).toBe(404);
    expect(attack.headers.get("content-type") ?? "").not.toContain("zip");
    const after = await exportRow(exportId);
    expect(after.downloadCount).toBe(before.downloadCount);
    const [attackerAudit] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, attacker.id), eq(auditLog.action, "privacy.export_downloaded")));
    expect(Number(attackerAudit!.n)).toBe(0);
  });

  it("sends an anonymous visitor to sign in, for the status, the download and the start", async () => {
    for (const result of [
      await status(undefined, exportId),
      await download(undefined, exportId),
      await settle(() => startAction(routeArgs(postAs(undefined, "/mis-datos/exportaciones", {})))),
    ]) {
      expect(result.status).toBe(302);
      expect(result.location).toMatch(/^\/auth\?redirectTo=%2Fmis-datos%2Fexportaciones/);
    }
  });

  it("says clearly, in Spanish, that an expired export is gone, and drops its file", async () => {
    const second = await requestExport(db, owner.id);
    await build();
    const notReady = await requestExport(db, owner.id);
    expect((await download(owner, notReady.id)).status).toBe(409);

    await db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(dataExports.id, second.id));
    const expired = await download(owner, second.id);
    expect({ status: expired.status, body: expired.body }).toEqual({
      status: 410,
      body: { message: DATA_EXPORT_EXPIRED_MESSAGE },
    });
    await build();
    expect(await exportRow(second.id)).toMatchObject({ status: "expired", file: null });
    const shown = await status(owner, second.id);
    expect(shown.body).toMatchObject({
      status: "expired",
      statusLabel: "Vencida",
      message: DATA_EXPORT_EXPIRED_MESSAGE,
    });
    expect((await download(owner, second.id)).status).toBe(410);
  });
});
