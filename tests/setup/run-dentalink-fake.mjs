// Standalone fake Dentalink API (v1) for `npm run dev`, Playwright and manual runs:
//   DENTALINK_FAKE_PORT=3293 DENTALINK_API_KEY=fake-dentalink-key node tests/setup/run-dentalink-fake.mjs
// then DENTALINK_BASE_URL=http://127.0.0.1:3293/api/v1. It serves the demo data of mock mode (the four dentists, the
// RUT portal's demo patients with their records and files). DENTALINK_FAKE_STATE_FILE keeps what is created in it
// across restarts (npm run dev: data/dentalink-fake.json).
import { numberFromEnv, serveUntilSignal } from "./fake-runner.mjs";

const { startDentalinkFake } = await import("../../app/integrations/dentalink/dentalink-fake.ts");

const fake = await startDentalinkFake({
  port: numberFromEnv("DENTALINK_FAKE_PORT", 3293),
  apiKey: process.env.DENTALINK_API_KEY || "fake-dentalink-key",
  latencyMs: numberFromEnv("DENTALINK_FAKE_LATENCY_MS", 0),
  pageSize: numberFromEnv("DENTALINK_FAKE_PAGE_SIZE", 50) || 50,
  stateFile: process.env.DENTALINK_FAKE_STATE_FILE || undefined,
});
serveUntilSignal(fake, "dentalink");
