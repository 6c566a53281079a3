import { closeDb, getDb } from "~/db/client.server";
import {
  formatRetentionCounts,
  retentionDryRun,
  runRetentionSweep,
} from "~/features/privacy/retention-sweep.server";
import { env } from "~/lib/base/env.server";

const USAGE = "uso: npm run retention [-- --dry-run]";

/**
 * `npm run retention` (scripts/retention.mjs, ADR 038): the retention sweep once, now, against the database the app
 * uses (DATABASE_URL, or the embedded PGlite under DATA_DIR — stop the server first: PGlite is one process's).
 * `--dry-run` prints what it would remove per table and changes nothing. Answers the exit code.
 */
export async function retentionCommand(
  argv: readonly string[],
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  const unknown = argv.filter((arg) => arg !== "--dry-run");
  if (unknown.length > 0) {
    write(`Opción desconocida: ${unknown.join(" ")}\n${USAGE}\n`);
    return 2;
  }
  const dryRun = argv.includes("--dry-run");
  env();
  const db = await getDb();
  try {
    const now = new Date();
    const counts = dryRun ? await retentionDryRun(db, now) : await runRetentionSweep(db, now);
    write(
      `${dryRun ? "Simulación (no se cambia nada)" : "Limpieza por plazos de conservación"} al ${now.toISOString()}\n`,
    );
    write(`${formatRetentionCounts(counts, dryRun)}\n`);
    const total = counts
      .filter((count) => count.action !== "keep")
      .reduce((sum, count) => sum + count.rows, 0);
    write(
      `${dryRun ? "Filas que se eliminarían o anonimizarían" : "Filas eliminadas o anonimizadas"}: ${total}\n`,
    );
    return 0;
  } finally {
    await closeDb();
  }
}
