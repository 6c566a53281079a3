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
  // The app runs VACUUM ANALYZE on every boot (app/db/client.server.ts): done once here, it finds every page already
  // visible in each file's copy and costs a fraction of its time there.
  await client.exec("vacuum analyze");
  await client.exec("checkpoint");
  const dump = await client.dumpDataDir("none");
  await client.close();
  const file = path.join(tmpdir(), `clinica-pglite-template-${process.pid}-${Date.now()}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.TEST_PGLITE_TEMPLATE = file;
  return () => rmSync(file, { force: true });
}
