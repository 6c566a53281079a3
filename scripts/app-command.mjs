// Runs one of the app's command-line commands (an export of an app/startup/*-command.server.ts module; retention,
// backup, restore): through Vite (TypeScript sources) or, where Vite is not installed, the server build
// (`npm run build`, which re-exports the command from app/entry.server.tsx). Exits with the command's code.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");

/**
 * A Vite server (no HTTP, no file watching) that loads the app's TypeScript modules as in development, with its path
 * aliases: `await vite.ssrLoadModule("/app/…")`; close it when done. Throws ERR_MODULE_NOT_FOUND without Vite.
 */
export async function createAppVite() {
  const { createServer } = await import("vite");
  return createServer({
    configFile: false,
    root,
    logLevel: "error",
    resolve: { tsconfigPaths: true },
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: "custom",
    optimizeDeps: { noDiscovery: true, include: [] },
  });
}

export async function runAppCommand(modulePath, exportName, argv = process.argv.slice(2)) {
  process.chdir(root);
  process.env.LOG_LEVEL ??= "warn";

  async function viaVite() {
    let vite;
    try {
      vite = await createAppVite();
    } catch (error) {
      if (error?.code === "ERR_MODULE_NOT_FOUND") return undefined;
      throw error;
    }
    const module = await vite.ssrLoadModule(modulePath);
    return { command: module[exportName], close: () => vite.close() };
  }

  async function viaBuild() {
    const built = path.join(root, "build/server/index.js");
    if (!existsSync(built)) return undefined;
    const build = await import(pathToFileURL(built).href);
    const command = build.entry?.module?.[exportName];
    return command ? { command, close: async () => {} } : undefined;
  }

  const runner =
    process.env.APP_COMMAND_VIA === "build" ? await viaBuild() : ((await viaVite()) ?? (await viaBuild()));
  if (!runner) {
    console.error("No se encontró Vite ni build/: ejecuta `npm run build` primero.");
    process.exit(2);
  }
  let code = 1;
  try {
    code = await runner.command(argv);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
  } finally {
    await runner.close();
  }
  process.exit(code);
}
