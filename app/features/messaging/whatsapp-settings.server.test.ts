import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/lib/base/env.server";
import { assertWhatsAppTimingFits, whatsAppSettings } from "./whatsapp-settings.server";

const SECRET = "0123456789abcdef0123456789abcdef";

describe("whatsAppSettings", () => {
  it("is in test mode without a key, with the clinic's mobile as the sender", () => {
    const settings = whatsAppSettings(parseEnv({ AUTH_SECRET: SECRET, CLINIC_MOBILE: "+56987654321" }));
    expect(settings).toMatchObject({ testMode: true, sender: "56987654321", timeoutMs: 10_000, retries: 2 });
    expect(settings.notifyUrl).toBeUndefined();
  });

  it("sends for real with a key, unless WHATSAPP_TEST_MODE=1", () => {
    const real = {
      AUTH_SECRET: SECRET,
      WHATSAPP_API_KEY: "key-0123456789",
      WHATSAPP_BASE_URL: "https://xyz.api.infobip.com",
      WHATSAPP_SENDER: "56911112222",
      PUBLIC_BASE_URL: "https://clinica.example/",
    };
    expect(whatsAppSettings(parseEnv(real))).toMatchObject({
      testMode: false,
      apiKey: "key-0123456789",
      sender: "56911112222",
      notifyUrl: "https://clinica.example/api/whatsapp/reports",
    });
    expect(whatsAppSettings(parseEnv({ ...real, WHATSAPP_TEST_MODE: "1" })).testMode).toBe(true);
  });

  it("needs the base URL and the sender with a key", () => {
    expect(() => parseEnv({ AUTH_SECRET: SECRET, WHATSAPP_API_KEY: "key-0123456789" })).toThrow(
      /WHATSAPP_BASE_URL: obligatorio[\s\S]*WHATSAPP_SENDER: obligatorio/,
    );
  });
});

describe("assertWhatsAppTimingFits", () => {
  it("accepts the default timeout and refuses one whose retries could outlast the outbox lease", () => {
    expect(() => assertWhatsAppTimingFits(parseEnv({ AUTH_SECRET: SECRET }))).not.toThrow();
    const slow = parseEnv({ AUTH_SECRET: SECRET, WHATSAPP_TIMEOUT_MS: "15000" });
    expect(() => assertWhatsAppTimingFits(slow)).toThrow(EnvError);
    expect(() => assertWhatsAppTimingFits(slow)).toThrow(
      /WHATSAPP_TIMEOUT_MS: .*plazo del outbox \(60000 ms\)/,
    );
  });
});
