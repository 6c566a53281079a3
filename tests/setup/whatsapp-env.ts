/**
 * The WHATSAPP_* variables that point the app at a fake provider, for integration tests that import the app after
 * setting them (`env()` is read once and cached), and their removal afterwards.
 */
const WHATSAPP_ENV_NAMES = [
  "WHATSAPP_BASE_URL",
  "WHATSAPP_API_KEY",
  "WHATSAPP_SENDER",
  "WHATSAPP_WEBHOOK_SECRET",
] as const;

export function setWhatsAppEnv(values: { baseUrl: string; apiKey: string; sender: string; secret: string }) {
  Object.assign(process.env, {
    WHATSAPP_BASE_URL: values.baseUrl,
    WHATSAPP_API_KEY: values.apiKey,
    WHATSAPP_SENDER: values.sender,
    WHATSAPP_WEBHOOK_SECRET: values.secret,
  });
}

export function clearWhatsAppEnv() {
  for (const name of WHATSAPP_ENV_NAMES) delete process.env[name];
}
