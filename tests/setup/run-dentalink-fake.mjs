// Standalone fake Dentalink API (v1) for `npm run dev`, Playwright and manual runs:
//   DENTALINK_FAKE_PORT=3293 DENTALINK_API_KEY=fake-dentalink-key node tests/setup/run-dentalink-fake.mjs
// then DENTALINK_BASE_URL=http://127.0.0.1:3293/api/v1.
import { numberFromEnv, serveUntilSignal } from "./fake-runner.mjs";

const { startDentalinkFake } = await import("../../app/integrations/dentalink/dentalink-fake.ts");

const fake = await startDentalinkFake({
  port: numberFromEnv("DENTALINK_FAKE_PORT", 3293),
  apiKey: process.env.DENTALINK_API_KEY || "fake-dentalink-key",
  latencyMs: numberFromEnv("DENTALINK_FAKE_LATENCY_MS", 0),
  pageSize: numberFromEnv("DENTALINK_FAKE_PAGE_SIZE", 50) || 50,
});
serveUntilSignal(fake, "dentalink");
