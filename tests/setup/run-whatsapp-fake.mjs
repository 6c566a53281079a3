// Standalone fake WhatsApp provider (Infobip API) for `npm run dev`, Playwright and manual runs:
//   WHATSAPP_FAKE_PORT=3292 WHATSAPP_API_KEY=fake-whatsapp-key \
//   WHATSAPP_FAKE_REPORTS_URL=http://localhost:3000/api/whatsapp/reports WHATSAPP_WEBHOOK_SECRET=… \
//     node tests/setup/run-whatsapp-fake.mjs
// The fake is TypeScript run by Node's own type stripping (Node ≥ 22.18); its relative imports are written
// without an extension (for Vite and tsc), so a resolve hook tries `.ts` for those.
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

const { startWhatsAppFake } = await import("../../app/integrations/whatsapp/whatsapp-fake.ts");

const numberFromEnv = (name, fallback) => {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer`);
  return parsed;
};

const fake = await startWhatsAppFake({
  port: numberFromEnv("WHATSAPP_FAKE_PORT", 3292),
  apiKey: process.env.WHATSAPP_API_KEY || "fake-whatsapp-key",
  latencyMs: numberFromEnv("WHATSAPP_FAKE_LATENCY_MS", 0),
  reportDelayMs: numberFromEnv("WHATSAPP_FAKE_REPORT_DELAY_MS", 500),
  reportsUrl: process.env.WHATSAPP_FAKE_REPORTS_URL || undefined,
  inboundUrl: process.env.WHATSAPP_FAKE_INBOUND_URL || undefined,
  reportsSecret: process.env.WHATSAPP_WEBHOOK_SECRET || undefined,
});
console.log(`fake whatsapp ready ${fake.url}`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await fake.close();
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
