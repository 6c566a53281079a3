// Standalone fake Transbank Webpay Plus (REST API v1.2 and its payment form) for `npm run dev`, Playwright and
// manual runs:
//   WEBPAY_FAKE_PORT=3297 node tests/setup/run-webpay-fake.mjs
// then TRANSBANK_COMMERCE_CODE=597055555532 TRANSBANK_API_KEY=<the integration key> TRANSBANK_ENVIRONMENT=http://127.0.0.1:3297
// (the key defaults to Transbank's public integration key; TRANSBANK_COMMERCE_CODE/TRANSBANK_API_KEY override both
// sides). WEBPAY_FAKE_FORM_TIMEOUT_MS and WEBPAY_FAKE_COMMIT_WINDOW_MS shorten Webpay's limits;
// WEBPAY_FAKE_STATE_FILE keeps the transactions across restarts (npm run dev: data/webpay-fake.json).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { numberFromEnv, serveUntilSignal } from "./fake-runner.mjs";

const { startWebpayFake, reviveTransaction, WEBPAY_FAKE_DEFAULTS } =
  await import("../../app/integrations/webpay/webpay-fake.ts");
const { WEBPAY_INTEGRATION_API_KEY, WEBPAY_INTEGRATION_COMMERCE_CODE } =
  await import("../../app/integrations/webpay/webpay-schemas.ts");

const stateFile = process.env.WEBPAY_FAKE_STATE_FILE || undefined;

function load() {
  if (!stateFile) return undefined;
  try {
    return JSON.parse(readFileSync(stateFile, "utf8")).map(reviveTransaction);
  } catch {
    return undefined;
  }
}

const server = await startWebpayFake({
  port: numberFromEnv("WEBPAY_FAKE_PORT", 3297),
  commerceCode: process.env.TRANSBANK_COMMERCE_CODE || WEBPAY_INTEGRATION_COMMERCE_CODE,
  apiKey: process.env.TRANSBANK_API_KEY || WEBPAY_INTEGRATION_API_KEY,
  commerceName: process.env.WEBPAY_FAKE_COMMERCE_NAME || "Río Clínica (prueba)",
  formTimeoutMs: numberFromEnv("WEBPAY_FAKE_FORM_TIMEOUT_MS", WEBPAY_FAKE_DEFAULTS.formTimeoutMs),
  commitWindowMs: numberFromEnv("WEBPAY_FAKE_COMMIT_WINDOW_MS", WEBPAY_FAKE_DEFAULTS.commitWindowMs),
  initial: load(),
  onChange: stateFile
    ? (transactions) => {
        mkdirSync(dirname(stateFile), { recursive: true });
        writeFileSync(stateFile, JSON.stringify(transactions));
      }
    : undefined,
});
serveUntilSignal(server, "webpay");
