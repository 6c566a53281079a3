import pg from "pg";

/**
 * Runs the integration suite against a real PostgreSQL server. Each test file gets a database of its own
 * (tests/setup/postgres-per-file.ts), so no file sees another's rows: a shared outbox or a shared Dentalink dentist
 * link let one file deliver or change another's data. They are named after this run and dropped at its end.
 * TEST_DATABASE_URL points at a database we may CREATE DATABASE from (e.g. postgres://postgres@127.0.0.1:5432/postgres).
 */
export default async function setup() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const prefix = `clinica_test_${process.pid}_${Date.now()}`;
  process.env.TEST_DATABASE_PREFIX = prefix;

  return async () => {
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
}
