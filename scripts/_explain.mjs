import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
const db = await PGlite.create(process.argv[2], { extensions: { btree_gist, pg_trgm, unaccent } });
for (const q of process.argv.slice(3)) {
  try {
    if (q.startsWith("!")) {
      const t = performance.now();
      await db.exec(q.slice(1));
      console.log(`\n=== exec ${(performance.now() - t).toFixed(0)} ms: ${q}`);
      continue;
    }
    for (let i = 0; i < 2; i++) await db.query(q);
    const t = performance.now();
    for (let i = 0; i < 5; i++) await db.query(q);
    const ms = (performance.now() - t) / 5;
    const plan = await db.query("explain (analyze, buffers off) " + q);
    console.log(`\n=== ${ms.toFixed(1)} ms: ${q.slice(0, 200)}`);
    console.log(plan.rows.map((r) => r["QUERY PLAN"]).join("\n"));
  } catch (e) {
    console.log("ERR", q.slice(0, 80), e.message);
  }
}
await db.close();
