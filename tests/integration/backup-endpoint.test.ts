import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backupFileName } from "~/domain/backups";
import { routeArgs } from "../setup/route-args";

/*
 * The embedded database's own backups (ADR 046): the endpoint `npm run backup` calls on the running server (loopback
 * and the token of DATA_DIR/servidor.json only) and the daily job's look (one per clinic day, the last BACKUP_KEEP).
 * PGlite on disk only: on PostgreSQL the server takes no backup of its own.
 */

const work = mkdtempSync(path.join(tmpdir(), "clinica-backup-endpoint-"));
const backups = path.join(work, "backups");
const onPostgres = Boolean(process.env.DATABASE_URL);
if (!onPostgres) {
  process.env.DATA_DIR = path.join(work, "data");
  process.env.BACKUP_DIR = backups;
  process.env.BACKUP_KEEP = "2";
}
const { closeDb } = await import("~/db/client.server");
const service = await import("~/features/backups/backup-service.server");
const route = await import("~/routes/api/backup");

afterAll(async () => {
  await closeDb();
  rmSync(work, { recursive: true, force: true });
});

function post(headers: Record<string, string>) {
  return route.action(
    routeArgs(new Request("http://localhost/api/interno/respaldo", { method: "POST", headers })),
  ) as Promise<Response>;
}

describe.skipIf(onPostgres)("backups of the embedded database taken by the server", () => {
  it("publishes servidor.json for its owner only, and answers only loopback with its token", async () => {
    service.publishBackupControl();
    const file = path.join(process.env.DATA_DIR!, "servidor.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const control = JSON.parse(readFileSync(file, "utf8")) as { pid: number; port: number; token: string };
    expect(control.pid).toBe(process.pid);
    expect(control.token.length).toBeGreaterThanOrEqual(40);

    const loopback = { "x-clinica-client-ip": "127.0.0.1" };
    expect((await post(loopback)).status).toBe(403);
    expect((await post({ ...loopback, authorization: "Bearer equivocado" })).status).toBe(403);
    expect(
      (await post({ "x-clinica-client-ip": "203.0.113.9", authorization: `Bearer ${control.token}` })).status,
    ).toBe(403);
    expect(existsSync(backups)).toBe(false);

    const response = await post({ "x-clinica-client-ip": "::1", authorization: `Bearer ${control.token}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { file: string; bytes: number };
    expect(path.basename(body.file)).toMatch(/^clinica-manual-\d{8}T\d{6}Z\.tar\.gz$/);
    expect(statSync(body.file).size).toBe(body.bytes);

    const get = (await route.loader()) as Response;
    expect(get.status).toBe(405);

    service.withdrawBackupControl();
    expect(existsSync(file)).toBe(false);
  });

  it("takes one daily backup per clinic day and keeps the last BACKUP_KEEP, never the manual ones", async () => {
    mkdirSync(backups, { recursive: true });
    const old = ["2027-01-01", "2027-01-02", "2027-01-03"].map((day) =>
      backupFileName("diario", new Date(`${day}T12:00:00Z`), "tar.gz"),
    );
    for (const name of old) writeFileSync(path.join(backups, name), "antiguo");
    const manual = readdirSync(backups).filter((name) => name.startsWith("clinica-manual-"));
    expect(manual).toHaveLength(1);

    const now = new Date("2027-02-10T15:00:00Z");
    const taken = await service.runDailyBackup(now);
    expect(path.basename(taken!.file)).toBe(backupFileName("diario", now, "tar.gz"));
    expect(taken!.deleted.toSorted()).toEqual(old.slice(0, 2));
    expect(await service.runDailyBackup(new Date("2027-02-10T20:00:00Z"))).toBeNull();
    expect(readdirSync(backups).toSorted()).toEqual(
      [...manual, old[2], path.basename(taken!.file)].toSorted(),
    );
  });
});
