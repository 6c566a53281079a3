// Standalone fake Dentalink API (v1) for `npm run dev`, Playwright and manual runs:
//   DENTALINK_FAKE_PORT=3293 DENTALINK_API_KEY=fake-dentalink-key node tests/setup/run-dentalink-fake.mjs
// then DENTALINK_BASE_URL=http://127.0.0.1:3293/api/v1. The fake is TypeScript run by Node's own type stripping
// (Node ≥ 22.18); its relative imports are written without an extension (for Vite and tsc), so a resolve hook
// tries `.ts` for those.
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

const { startDentalinkFake } = await import("../../app/integrations/dentalink/dentalink-fake.ts");

const numberFromEnv = (name, fallback) => {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer`);
  return parsed;
};

const fake = await startDentalinkFake({
  port: numberFromEnv("DENTALINK_FAKE_PORT", 3293),
  apiKey: process.env.DENTALINK_API_KEY || "fake-dentalink-key",
  latencyMs: numberFromEnv("DENTALINK_FAKE_LATENCY_MS", 0),
  pageSize: numberFromEnv("DENTALINK_FAKE_PAGE_SIZE", 50) || 50,
});
console.log(`fake dentalink ready ${fake.url}`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await fake.close();
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
