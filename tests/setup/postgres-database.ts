import { randomBytes } from "node:crypto";
import pg from "pg";

export interface ScratchDatabase {
  name: string;
  /** The same server and credentials as the URL it was created from, on the new database. */
  url: string;
  /** Drops the database, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

/** A PostgreSQL URL (postgres:// or postgresql://) in DATABASE_URL, or undefined (the PGlite projects set ""). */
export function postgresUrlFromEnv(): string | undefined {
  const url = process.env.DATABASE_URL;
  return url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
}

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A fresh database on the server of `serverUrl` (any database there we may CREATE DATABASE from), for tests that
 * must not share tables with the other test files (e.g. several server processes on one database). Empty, or a copy
 * of `options.template` (a database nobody is connected to, e.g. the run's migrated template made by
 * tests/setup/postgres-global.ts): PostgreSQL copies its files, which is far cheaper than running every migration.
 */
export async function createScratchDatabase(
  serverUrl: string,
  prefix: string,
  options: { template?: string } = {},
): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  if (!SAFE_NAME.test(name)) throw new Error(`not a safe database name: ${name}`);
  const { template } = options;
  if (template !== undefined && !SAFE_NAME.test(template))
    throw new Error(`not a safe database name: ${template}`);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
