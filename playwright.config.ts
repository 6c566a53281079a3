import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;
// Google: the server runs in demo mode without GOOGLE_* variables, so it serves its own "Google (demostración)" at
// /google-demo (app/integrations/google/oidc-fake.mjs, issue 24 item 19): the e2e tests sign in through exactly what
// the demo shows. The same provider on a server of its own stands in for a real Google in the integration tests.
// The fake WhatsApp provider (Infobip's contract, app/integrations/whatsapp/whatsapp-fake.ts): the server sends to it
// for real, and it posts delivery reports back to the server's webhook.
export const whatsAppFakePort = Number(process.env.E2E_WHATSAPP_PORT ?? 3294);
export const whatsAppFakeUrl = `http://127.0.0.1:${whatsAppFakePort}`;
const whatsAppKey = "fake-whatsapp-key-e2e";
// The fake Dentalink API (app/integrations/dentalink/dentalink-fake.ts) with mock mode's demo records: the server
// runs in live mode against it (the client over HTTP, bookings written through); tests inject failures through its
// /__fake routes (scoped to their own patient, so parallel tests are not disturbed).
export const dentalinkFakePort = Number(process.env.E2E_DENTALINK_PORT ?? 3295);
export const dentalinkFakeOrigin = `http://127.0.0.1:${dentalinkFakePort}`;
const dentalinkKey = "fake-dentalink-key-e2e";
// The fake Webpay Plus (app/integrations/webpay/webpay-fake.ts, ADR 036): the server pays through the official SDK
// against it, and its payment form sends the browser back to the server's return URL. Tests drive the form or its
// /__fake/pay hook, and move its clock with /__fake/clock.
export const webpayFakePort = Number(process.env.E2E_WEBPAY_PORT ?? 3296);
export const webpayFakeUrl = `http://127.0.0.1:${webpayFakePort}`;
const webpayCommerceCode = "597055555532";
const webpayKey = "fake-webpay-key-e2e-0123456789";
const whatsAppWebhookSecret = "e2e-webhook-secret-0123456789";
// /metrics is served to this token only; the global teardown scrapes it once the suite is over (issue 25).
const metricsToken = "e2e-metrics-token-0123456789abcdef";
process.env.E2E_BASE_URL = baseURL;
process.env.E2E_METRICS_TOKEN = metricsToken;

// Debian's Chromium, never a downloaded browser (STACK-NOTES 5).
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.e2e.ts",
  globalTeardown: "./tests/e2e/metrics-scrape.teardown.ts",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // A 2-core machine running two browsers and the server: axe on the landing page alone takes 20+ s there.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    locale: "es-CL",
    timezoneId: "America/Santiago",
    // A failing test keeps its trace (actions, DOM snapshots, network, console); the screencast film strip is left
    // out: recording it costs every passing test CPU on this 2-core machine.
    trace: { mode: "retain-on-failure", screenshots: false },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    {
      command: "exec node tests/setup/run-whatsapp-fake.mjs",
      env: {
        WHATSAPP_FAKE_PORT: String(whatsAppFakePort),
        WHATSAPP_API_KEY: whatsAppKey,
        WHATSAPP_WEBHOOK_SECRET: whatsAppWebhookSecret,
        WHATSAPP_FAKE_REPORTS_URL: `${baseURL}/api/whatsapp/reports`,
        WHATSAPP_FAKE_INBOUND_URL: `${baseURL}/api/whatsapp/inbound`,
        WHATSAPP_FAKE_REPORT_DELAY_MS: "200",
      },
      url: `${whatsAppFakeUrl}/__fake/sent`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "exec node tests/setup/run-dentalink-fake.mjs",
      env: {
        DENTALINK_FAKE_PORT: String(dentalinkFakePort),
        DENTALINK_API_KEY: dentalinkKey,
        // The real call takes a moment, so the sync tab's processing view is really there.
        DENTALINK_FAKE_LATENCY_MS: "300",
      },
      url: `${dentalinkFakeOrigin}/__fake/state`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "exec node tests/setup/run-webpay-fake.mjs",
      env: {
        WEBPAY_FAKE_PORT: String(webpayFakePort),
        TRANSBANK_COMMERCE_CODE: webpayCommerceCode,
        TRANSBANK_API_KEY: webpayKey,
      },
      url: `${webpayFakeUrl}/__fake/state`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The production build on a fresh embedded database with demo data (demo mode, as `npm run demo`).
      command: `rm -rf data/e2e && exec node server.mjs`,
      env: {
        PORT: String(port),
        SEED_DEMO: "1",
        DATA_DIR: "data/e2e",
        LOG_LEVEL: "warn",
        PUBLIC_BASE_URL: baseURL,
        // The tests stand in for a proxy on this host: each browser context sends its own X-Forwarded-For, so that
        // every test is a client of its own for the rate limits (tests/e2e/support.ts, useOwnClientIp).
        TRUST_PROXY: "loopback",
        WHATSAPP_BASE_URL: whatsAppFakeUrl,
        WHATSAPP_API_KEY: whatsAppKey,
        WHATSAPP_SENDER: "56226543210",
        WHATSAPP_WEBHOOK_SECRET: whatsAppWebhookSecret,
        DENTALINK_API_KEY: dentalinkKey,
        DENTALINK_BASE_URL: `${dentalinkFakeOrigin}/api/v1`,
        DENTALINK_DASHBOARD_URL: `${dentalinkFakeOrigin}/`,
        TRANSBANK_COMMERCE_CODE: webpayCommerceCode,
        TRANSBANK_API_KEY: webpayKey,
        TRANSBANK_ENVIRONMENT: webpayFakeUrl,
        // A data export pauses after each table it reads, so its progress is seen (ADR 037).
        DATA_EXPORT_PACE_MS: "100",
        METRICS_TOKEN: metricsToken,
      },
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
