// Standalone fake WhatsApp provider (Infobip API) for `npm run dev`, Playwright and manual runs:
//   WHATSAPP_FAKE_PORT=3292 WHATSAPP_API_KEY=fake-whatsapp-key \
//   WHATSAPP_FAKE_REPORTS_URL=http://localhost:3000/api/whatsapp/reports WHATSAPP_WEBHOOK_SECRET=… \
//     node tests/setup/run-whatsapp-fake.mjs
import { numberFromEnv, serveUntilSignal } from "./fake-runner.mjs";

const { startWhatsAppFake } = await import("../../app/integrations/whatsapp/whatsapp-fake.ts");

const fake = await startWhatsAppFake({
  port: numberFromEnv("WHATSAPP_FAKE_PORT", 3292),
  apiKey: process.env.WHATSAPP_API_KEY || "fake-whatsapp-key",
  latencyMs: numberFromEnv("WHATSAPP_FAKE_LATENCY_MS", 0),
  reportDelayMs: numberFromEnv("WHATSAPP_FAKE_REPORT_DELAY_MS", 500),
  reportsUrl: process.env.WHATSAPP_FAKE_REPORTS_URL || undefined,
  inboundUrl: process.env.WHATSAPP_FAKE_INBOUND_URL || undefined,
  reportsSecret: process.env.WHATSAPP_WEBHOOK_SECRET || undefined,
});
serveUntilSignal(fake, "whatsapp");
