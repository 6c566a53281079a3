// What the standalone fake runners (run-whatsapp-fake.mjs, run-dentalink-fake.mjs) share. The fakes are TypeScript
// run by Node's own type stripping (Node ≥ 22.18); their relative imports are written without an extension (for
// Vite and tsc), so a resolve hook tries `.ts` for those.
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (specifier.startsWith(".") && !/\.[cm]?[jt]s$/.test(specifier)) {
        return nextResolve(`${specifier}.ts`, context);
      }
      throw error;
    }
  },
});

/** A non-negative integer from the environment, else `fallback`. */
export function numberFromEnv(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer`);
  return parsed;
}

/** Announces the running fake (tests wait for this line) and closes it on SIGTERM/SIGINT. */
export function serveUntilSignal(fake, name) {
  console.log(`fake ${name} ready ${fake.url}`);
  let stopping = false;
  async function stop() {
    if (stopping) return;
    stopping = true;
    await fake.close();
    process.exit(0);
  }
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
