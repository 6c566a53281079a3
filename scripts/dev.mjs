// `npm run dev`: the fake WhatsApp provider and the fake Dentalink API on 127.0.0.1, then `react-router dev` with
// demo data, talking to them. Messages really travel through the outbox and the client; the WhatsApp fake posts
// delivery reports back to the dev server's webhook. The Dentalink fake serves the same demo records as mock mode
// (the four dentists, the RUT portal's demo patients) over HTTP, so the app runs in live mode ("Conectado") and Mis
// Citas bookings are written through to it; what is created there is kept in data/dentalink-fake.json.
// The Webpay fake (ADR 036) stands in for Transbank: payments go through the official SDK to it and its payment form
// sends the browser back to the dev server (test cards on the form); its transactions are kept in data/webpay-fake.json.
// Set WHATSAPP_API_KEY (and WHATSAPP_BASE_URL), DENTALINK_API_KEY (and DENTALINK_BASE_URL) or TRANSBANK_API_KEY (with
// TRANSBANK_COMMERCE_CODE and TRANSBANK_ENVIRONMENT) yourself to use a real account instead; DENTALINK_FAKE=0 runs
// Dentalink in mock mode (in process, no HTTP) instead of the fake.
import { spawn } from "node:child_process";
import { once } from "node:events";

const devPort = Number(process.env.PORT ?? 5173);
const whatsAppFakePort = Number(process.env.WHATSAPP_FAKE_PORT ?? 3292);
const dentalinkFakePort = Number(process.env.DENTALINK_FAKE_PORT ?? 3293);
const webpayFakePort = Number(process.env.WEBPAY_FAKE_PORT ?? 3297);
const oidcFakePort = Number(process.env.OIDC_FAKE_PORT ?? 3291);
const devUrl = `http://localhost:${devPort}`;
const useWhatsAppFake = !process.env.WHATSAPP_API_KEY;
const useDentalinkFake =
  !process.env.DENTALINK_API_KEY && !/^(0|false)$/i.test(process.env.DENTALINK_FAKE ?? "");
const useWebpayFake = !process.env.TRANSBANK_API_KEY;
// The built server (npm run demo) mounts its "Google (demostración)" itself; Vite's dev server does not run
// server.mjs, so here the same provider runs on a port of its own and the app uses it as its Google.
const useOidcFake = !process.env.GOOGLE_CLIENT_ID;

const whatsAppEnv = {
  WHATSAPP_API_KEY: "fake-whatsapp-key-dev",
  WHATSAPP_WEBHOOK_SECRET: process.env.WHATSAPP_WEBHOOK_SECRET ?? "dev-webhook-secret-0123456789",
};
const dentalinkKey = "fake-dentalink-key-dev";
// The fake checks the same pair the app sends; a key of its own, so nothing real is ever configured by accident.
const webpayEnv = {
  TRANSBANK_COMMERCE_CODE: "597055555532",
  TRANSBANK_API_KEY: "fake-webpay-key-dev-0123456789",
};
const children = [];

function start(command, args, env) {
  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  child.stdout.pipe(process.stdout);
  children.push(child);
  child.on("exit", (code) => {
    if (!stopping) {
      console.error(`${args.at(-1)} stopped (${code}); stopping the dev environment`);
      stop(code ?? 1);
    }
  });
  return child;
}

/** Waits for a fake's "ready" line before the app starts. */
async function ready(child) {
  let seen = "";
  child.stdout.on("data", (chunk) => (seen += chunk));
  while (!seen.includes("ready")) await once(child.stdout, "data");
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  process.exitCode = code;
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

const fakes = [];
if (useWhatsAppFake) {
  fakes.push(
    start(process.execPath, ["tests/setup/run-whatsapp-fake.mjs"], {
      ...whatsAppEnv,
      WHATSAPP_FAKE_PORT: String(whatsAppFakePort),
      WHATSAPP_FAKE_REPORTS_URL: `${devUrl}/api/whatsapp/reports`,
      WHATSAPP_FAKE_INBOUND_URL: `${devUrl}/api/whatsapp/inbound`,
    }),
  );
}
if (useDentalinkFake) {
  fakes.push(
    start(process.execPath, ["tests/setup/run-dentalink-fake.mjs"], {
      DENTALINK_API_KEY: dentalinkKey,
      DENTALINK_FAKE_PORT: String(dentalinkFakePort),
      // A little latency, so the sync tab's processing view is seen as with the real API.
      DENTALINK_FAKE_LATENCY_MS: process.env.DENTALINK_FAKE_LATENCY_MS ?? "250",
      DENTALINK_FAKE_STATE_FILE: process.env.DENTALINK_FAKE_STATE_FILE ?? "data/dentalink-fake.json",
    }),
  );
}
if (useWebpayFake) {
  fakes.push(
    start(process.execPath, ["tests/setup/run-webpay-fake.mjs"], {
      ...webpayEnv,
      WEBPAY_FAKE_PORT: String(webpayFakePort),
      WEBPAY_FAKE_STATE_FILE: process.env.WEBPAY_FAKE_STATE_FILE ?? "data/webpay-fake.json",
    }),
  );
}
if (useOidcFake) {
  fakes.push(
    start(process.execPath, ["tests/setup/run-fake-oidc.mjs"], {
      FAKE_OIDC_PORT: String(oidcFakePort),
      FAKE_OIDC_REDIRECT_URIS: `${devUrl}/api/auth/callback/google`,
    }),
  );
}
await Promise.all(fakes.map(ready));

start(
  process.execPath,
  ["node_modules/@react-router/dev/bin.cjs", "dev", "--port", String(devPort), "--strictPort"],
  {
    SEED_DEMO: "1",
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? devUrl,
    ...(useWhatsAppFake
      ? {
          ...whatsAppEnv,
          WHATSAPP_BASE_URL: `http://127.0.0.1:${whatsAppFakePort}`,
          WHATSAPP_SENDER: process.env.WHATSAPP_SENDER ?? "56226543210",
        }
      : {}),
    ...(useDentalinkFake
      ? {
          DENTALINK_API_KEY: dentalinkKey,
          DENTALINK_BASE_URL: `http://127.0.0.1:${dentalinkFakePort}/api/v1`,
          // 'Ver en Dentalink': the fake's page of what was created in it.
          DENTALINK_DASHBOARD_URL: `http://127.0.0.1:${dentalinkFakePort}/`,
        }
      : {}),
    ...(useWebpayFake ? { ...webpayEnv, TRANSBANK_ENVIRONMENT: `http://127.0.0.1:${webpayFakePort}` } : {}),
    ...(useOidcFake
      ? {
          GOOGLE_CLIENT_ID: "clinica-test",
          GOOGLE_CLIENT_SECRET: "clinica-test-secret",
          GOOGLE_DISCOVERY_URL: `http://127.0.0.1:${oidcFakePort}/.well-known/openid-configuration`,
        }
      : {}),
  },
);
