// npm run bench:backup — how long a backup and a restore take on a database of 100,000 leads and 10,000 appointments
// (issue 25, ADR 046), on the embedded PGlite (the dump the server takes of itself, restored into an empty data
// directory) and on PostgreSQL (pg_dump -Fc, pg_restore into an empty database) when one is reachable at
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres; a scratch database is made and dropped).
// The app's code (app/db/backup.server.ts) is loaded through Vite, as in development.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createAppVite } from "./app-command.mjs";
import { seedAppointmentsSql, seedLeadsSql, seedUsersSql } from "./backup-data.mjs";
import { emitFigures, figure } from "./bench-json.mjs";

const LEADS = Number(process.env.BENCH_LEADS ?? 100_000);
const APPOINTMENTS = Number(process.env.BENCH_APPOINTMENTS ?? 10_000);
const root = path.resolve(import.meta.dirname, "..");
const migrationsFolder = path.join(root, "app/db/migrations");
const work = mkdtempSync(path.join(tmpdir(), "clinica-bench-backup-"));

const vite = await createAppVite();
const backup = await vite.ssrLoadModule("/app/db/backup.server.ts");
const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
const { migrate: migratePglite } = await import("drizzle-orm/pglite/migrator");
const { drizzle: drizzlePg } = await import("drizzle-orm/node-postgres");
const { migrate: migratePg } = await import("drizzle-orm/node-postgres/migrator");

const results = [];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
async function timed(fn) {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

async function seed(query) {
  await query(seedUsersSql("bench"));
  for (let from = 1; from <= LEADS; from += 20_000)
    await query(seedLeadsSql("bench", from, Math.min(20_000, LEADS - from + 1)));
  await query(seedAppointmentsSql("bench", 1, APPOINTMENTS));
}

async function counts(query) {
  const [row] = await query(
    "select (select count(*)::int from leads) as leads, (select count(*)::int from appointments) as appointments",
  );
  return `${row.leads} leads, ${row.appointments} citas`;
}

async function benchPglite() {
  const client = await backup.openPglite(path.join(work, "pglite"));
  const query = async (text) => (await client.query(text)).rows;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  const seeded = await timed(() => seed(query));
  await client.exec("vacuum analyze");
  const file = path.join(work, "clinica-manual.tar.gz");
  // A query sent while the backup runs, as a request would: how long the server keeps it waiting.
  const dumping = timed(async () => backup.writeFileDurably(file, await backup.dumpPglite(client)));
  let longestWait = 0;
  const state = { done: false };
  void dumping.then(() => (state.done = true));
  while (!state.done) {
    const waited = await timed(() => client.query("select 1"));
    longestWait = Math.max(longestWait, waited.ms);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const dumped = await dumping;
  await client.close();
  const target = path.join(work, "pglite-restaurada");
  const restored = await timed(() => backup.restorePglite(file, target));
  const check = await backup.openPglite(target);
  const found = await counts(async (text) => (await check.query(text)).rows);
  await check.close();
  results.push({
    layer: "PGlite",
    wait: longestWait,
    seed: seeded.ms,
    backup: dumped.ms,
    restore: restored.ms,
    size: statSync(file).size,
    found,
  });
}

async function benchPostgres(serverUrl) {
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
  } catch (error) {
    console.warn(`PostgreSQL no disponible en ${serverUrl} (${error.message}): se mide solo PGlite.`);
    return;
  }
  const name = `clinica_bench_backup_${process.pid}`;
  const urlOf = (db) => Object.assign(new URL(serverUrl), { pathname: `/${db}` }).toString();
  await admin.query(`create database ${name}`);
  await admin.query(`create database ${name}_r`);
  try {
    const client = new pg.Client({ connectionString: urlOf(name) });
    await client.connect();
    const query = async (text) => (await client.query(text)).rows;
    await migratePg(drizzlePg(client), { migrationsFolder });
    const seeded = await timed(() => seed(query));
    await client.query("vacuum analyze");
    await client.end();
    const file = path.join(work, "clinica-manual.dump");
    const dumped = await timed(() => backup.pgDumpToFile(urlOf(name), file));
    const restored = await timed(() => backup.pgRestoreFromFile(urlOf(`${name}_r`), file));
    const check = new pg.Client({ connectionString: urlOf(`${name}_r`) });
    await check.connect();
    const found = await counts(async (text) => (await check.query(text)).rows);
    await check.end();
    results.push({
      layer: "PostgreSQL",
      seed: seeded.ms,
      backup: dumped.ms,
      restore: restored.ms,
      size: statSync(file).size,
      found,
    });
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`drop database if exists ${name}_r with (force)`);
    await admin.end();
  }
}

try {
  console.log(
    `Respaldo y restauración con ${LEADS.toLocaleString("es-CL")} leads y ${APPOINTMENTS.toLocaleString("es-CL")} citas`,
  );
  await benchPglite();
  await benchPostgres(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  console.log(
    "| base | carga de datos | respaldo | espera máx. de una consulta durante el respaldo | restauración | tamaño del respaldo | restaurado |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const r of results)
    console.log(
      `| ${r.layer} | ${seconds(r.seed)} | ${seconds(r.backup)} | ${r.wait === undefined ? "— (pg_dump no bloquea)" : `${Math.round(r.wait)} ms`} | ${seconds(r.restore)} | ${mib(r.size)} | ${r.found} |`,
    );
  const expected = `${LEADS} leads, ${APPOINTMENTS} citas`;
  const wrong = results.filter((r) => r.found !== expected);
  if (wrong.length > 0) {
    console.error(`Restauración incompleta: se esperaba ${expected}`);
    process.exitCode = 1;
  }
  emitFigures(
    "backup",
    results.flatMap((r) => [
      figure(`${r.layer} backup`, Math.round(r.backup), "ms"),
      figure(`${r.layer} restore`, Math.round(r.restore), "ms"),
      figure(`${r.layer} backup size`, Math.round((r.size / 1024 / 1024) * 10) / 10, "MiB"),
      ...(r.wait === undefined
        ? []
        : [figure(`${r.layer} longest query wait during backup`, Math.round(r.wait), "ms")]),
    ]),
    { leads: LEADS, appointments: APPOINTMENTS },
  );
} finally {
  await vite.close();
  rmSync(work, { recursive: true, force: true });
}
