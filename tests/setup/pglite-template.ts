import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

/**
 * Once per run of the PGlite integration project: an in-memory database with every migration applied, dumped to a
 * file that each test file's database starts from (TEST_PGLITE_TEMPLATE, read by app/db/client.server.ts). Every
 * file still gets a database of its own; what is saved is PGlite's initdb and the migrations, seconds per file.
 */
export default async function setup() {
  const client = await PGlite.create({ extensions: { btree_gin, btree_gist, pg_trgm, unaccent } });
  await migrate(drizzle(client), {
    migrationsFolder: path.resolve(import.meta.dirname, "../../app/db/migrations"),
  });
  // The app vacuums only in a listening server (app/jobs/database-maintenance.server.ts), never under NODE_ENV=test:
  // done once here, each file's copy starts with planner statistics and every page visible, as a served one would.
  await client.exec("vacuum analyze");
  await client.exec("checkpoint");
  const dump = await client.dumpDataDir("none");
  await client.close();
  const file = path.join(tmpdir(), `clinica-pglite-template-${process.pid}-${Date.now()}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.TEST_PGLITE_TEMPLATE = file;
  return () => rmSync(file, { force: true });
}
