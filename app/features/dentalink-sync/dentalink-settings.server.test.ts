import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/lib/base/env.server";
import { dentalinkSettings, dentalinkStatusView, isMockMode } from "./dentalink-settings.server";

const SECRET = "0123456789abcdef0123456789abcdef";

describe("dentalinkSettings", () => {
  it("defaults to the vendor's API v1, 8 s, mock mode without a key, no delays outside demo mode", () => {
    const settings = dentalinkSettings(parseEnv({ AUTH_SECRET: SECRET }));
    expect(settings).toEqual({
      apiKey: undefined,
      baseUrl: "https://api.dentalink.healthatom.com/api/v1",
      timeoutMs: 8_000,
      dashboardUrl: undefined,
      mockDelays: false,
    });
    expect(isMockMode(settings)).toBe(true);
    expect(isMockMode(dentalinkSettings(parseEnv({ AUTH_SECRET: SECRET, DENTALINK_API_KEY: "{key}" })))).toBe(
      true,
    );
    expect(
      isMockMode(dentalinkSettings(parseEnv({ AUTH_SECRET: SECRET, DENTALINK_API_KEY: "abc123" }))),
    ).toBe(false);
  });

  it("waits the spec's delays in demo mode unless DENTALINK_MOCK_DELAYS=0, and never in tests", () => {
    expect(dentalinkSettings(parseEnv({ SEED_DEMO: "1" })).mockDelays).toBe(true);
    expect(dentalinkSettings(parseEnv({ SEED_DEMO: "1", DENTALINK_MOCK_DELAYS: "0" })).mockDelays).toBe(
      false,
    );
    expect(dentalinkSettings(parseEnv({ SEED_DEMO: "1", NODE_ENV: "test" })).mockDelays).toBe(false);
    expect(dentalinkSettings(parseEnv({ AUTH_SECRET: SECRET, DENTALINK_MOCK_DELAYS: "1" })).mockDelays).toBe(
      true,
    );
  });

  it("refuses bad values with Spanish messages", () => {
    let caught: unknown;
    try {
      parseEnv({
        AUTH_SECRET: SECRET,
        DENTALINK_BASE_URL: "api.dentalink",
        DENTALINK_TIMEOUT_MS: "10",
        DENTALINK_DASHBOARD_URL: "ftp://x",
        DENTALINK_MOCK_DELAYS: "quizás",
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvError);
    expect((caught as EnvError).problems).toEqual([
      expect.stringMatching(/^DENTALINK_BASE_URL: debe ser una URL https/),
      "DENTALINK_TIMEOUT_MS: al menos 100 ms",
      expect.stringMatching(/^DENTALINK_DASHBOARD_URL: debe ser la URL https/),
      expect.stringMatching(/^DENTALINK_MOCK_DELAYS: usa 1/),
    ]);
  });
});

describe("dentalinkStatusView", () => {
  const closed = { state: "closed", failures: 0, openedAt: null } as const;

  it("says connected, modo demostración or circuit open", () => {
    expect(dentalinkStatusView({ mode: "live", circuit: closed })).toMatchObject({
      state: "connected",
      label: "Conectado",
    });
    expect(dentalinkStatusView({ mode: "mock", circuit: closed })).toMatchObject({
      state: "mock",
      label: "Modo demostración",
    });
    const now = Date.parse("2026-11-25T10:00:00Z");
    expect(
      dentalinkStatusView(
        { mode: "live", circuit: { state: "open", failures: 5, openedAt: new Date(now - 10_000) } },
        now,
      ),
    ).toMatchObject({ state: "circuit-open", detail: expect.stringContaining("20 s") });
  });
});
