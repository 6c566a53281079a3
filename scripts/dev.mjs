// `npm run dev`: the fake WhatsApp provider on 127.0.0.1, then `react-router dev` with demo data, sending to it.
// Messages really travel through the outbox and the client; the fake posts delivery reports back to the dev
// server's webhook. Set WHATSAPP_API_KEY yourself (and WHATSAPP_BASE_URL) to use a real account instead.
import { spawn } from "node:child_process";
import { once } from "node:events";

const devPort = Number(process.env.PORT ?? 5173);
const fakePort = Number(process.env.WHATSAPP_FAKE_PORT ?? 3292);
const devUrl = `http://localhost:${devPort}`;
const useFake = !process.env.WHATSAPP_API_KEY;

const fakeEnv = {
  WHATSAPP_API_KEY: "fake-whatsapp-key-dev",
  WHATSAPP_WEBHOOK_SECRET: process.env.WHATSAPP_WEBHOOK_SECRET ?? "dev-webhook-secret-0123456789",
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

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  process.exitCode = code;
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

if (useFake) {
  const fake = start(process.execPath, ["tests/setup/run-whatsapp-fake.mjs"], {
    ...fakeEnv,
    WHATSAPP_FAKE_PORT: String(fakePort),
    WHATSAPP_FAKE_REPORTS_URL: `${devUrl}/api/whatsapp/reports`,
    WHATSAPP_FAKE_INBOUND_URL: `${devUrl}/api/whatsapp/inbound`,
  });
  // Wait for its "ready" line before starting the app.
  let seen = "";
  fake.stdout.on("data", (chunk) => (seen += chunk));
  while (!seen.includes("ready")) await once(fake.stdout, "data");
}

start(
  process.execPath,
  ["node_modules/@react-router/dev/bin.cjs", "dev", "--port", String(devPort), "--strictPort"],
  {
    SEED_DEMO: "1",
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? devUrl,
    ...(useFake
      ? {
          ...fakeEnv,
          WHATSAPP_BASE_URL: `http://127.0.0.1:${fakePort}`,
          WHATSAPP_SENDER: process.env.WHATSAPP_SENDER ?? "56226543210",
        }
      : {}),
  },
);
