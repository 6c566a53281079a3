import pg from "pg";

/**
 * Runs the integration suite against a real PostgreSQL server: a fresh database per run, dropped afterwards.
 * TEST_DATABASE_URL points at a database we may CREATE DATABASE from (e.g. postgres://postgres@127.0.0.1:5432/postgres).
 */
export default async function setup() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `clinica_test_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();

  return async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  };
}
