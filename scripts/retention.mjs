// npm run retention [-- --dry-run] — the retention sweep once, now (ADR 038): deletes or anonymises what has passed
// its period in app/domain/retention.ts and prints the count per table; `--dry-run` prints what it would remove and
// changes nothing. The same database as the app: DATABASE_URL, or the embedded PGlite under DATA_DIR (./data by
// default; stop the server first, an embedded database belongs to one process). The app's code is reached through
// Vite (TypeScript sources, as in development) or, where Vite is not installed, the server build (`npm run build`).
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
process.env.LOG_LEVEL ??= "warn";

async function viaVite() {
  let createServer;
  try {
    ({ createServer } = await import("vite"));
  } catch {
    return undefined;
  }
  const vite = await createServer({
    configFile: false,
    root,
    logLevel: "error",
    resolve: { tsconfigPaths: true },
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: "custom",
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const module = await vite.ssrLoadModule("/app/startup/retention-command.server.ts");
  return { command: module.retentionCommand, close: () => vite.close() };
}

async function viaBuild() {
  const built = path.join(root, "build/server/index.js");
  if (!existsSync(built)) return undefined;
  const build = await import(pathToFileURL(built).href);
  const command = build.entry?.module?.retentionCommand;
  return command ? { command, close: async () => {} } : undefined;
}

const runner = (await viaVite()) ?? (await viaBuild());
if (!runner) {
  console.error("No se encontró Vite ni build/: ejecuta `npm run build` primero.");
  process.exit(2);
}
let code = 1;
try {
  code = await runner.command(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  await runner.close();
}
process.exit(code);
