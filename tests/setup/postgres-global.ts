import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

/**
 * Runs the integration suite against a real PostgreSQL server. Each test file gets a database of its own
 * (tests/setup/postgres-per-file.ts), so no file sees another's rows: a shared outbox or a shared Dentalink dentist
 * link let one file deliver or change another's data. They are named after this run and dropped at its end.
 * TEST_DATABASE_URL points at a database we may CREATE DATABASE from (e.g. postgres://postgres@127.0.0.1:5432/postgres).
 *
 * Once per run, a database with every migration applied (and nothing else: the app seeds its reference data at
 * first use, as on a fresh server) is made here; each file's database is a copy of it (CREATE DATABASE … TEMPLATE,
 * TEST_DATABASE_TEMPLATE), which saves running the migrations in every file (two seconds each). Nobody connects to
 * the template after this, as PostgreSQL requires of a template.
 */
export default async function setup() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const prefix = `clinica_test_${process.pid}_${Date.now()}`;
  process.env.TEST_DATABASE_PREFIX = prefix;

  const dropAll = async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    try {
      const { rows } = await cleanup.query<{ datname: string }>(
        "select datname from pg_database where datname like $1",
        [`${prefix}\\_%`],
      );
      for (const { datname } of rows) await cleanup.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await cleanup.end();
    }
  };

  const template = `${prefix}_template`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    await migrate(drizzle(client), {
      migrationsFolder: path.resolve(import.meta.dirname, "../../app/db/migrations"),
    });
  } catch (error) {
    await client.end().catch(() => {});
    await dropAll();
    throw error;
  }
  await client.end();
  process.env.TEST_DATABASE_TEMPLATE = template;

  return dropAll;
}
