import { describe, expect, it } from "vitest";
import {
  backupDirectory,
  clinicFacts,
  EnvError,
  googleSettings,
  isDemoMode,
  parseEnv,
  staffTwoFactorRequired,
  webpayMode,
  webpaySettings,
  whatsAppWebhookSecrets,
} from "./env.server";

const SECRET = "0123456789abcdef0123456789abcdef";

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The boot's complaints about `source` (with a valid AUTH_SECRET). */
function bootProblems(source: Record<string, string>) {
  const error = captureError(() => parseEnv({ AUTH_SECRET: SECRET, ...source }));
  expect(error).toBeInstanceOf(EnvError);
  return (error as EnvError).problems;
}

describe("parseEnv", () => {
  it("keeps 14 daily backups by default and refuses a count that is not a positive whole number", () => {
    expect(parseEnv({ AUTH_SECRET: SECRET }).BACKUP_KEEP).toBe(14);
    expect(parseEnv({ AUTH_SECRET: SECRET, BACKUP_KEEP: "3" }).BACKUP_KEEP).toBe(3);
    expect(bootProblems({ BACKUP_KEEP: "0" })).toEqual(["BACKUP_KEEP: al menos 1 respaldo diario"]);
    expect(bootProblems({ BACKUP_KEEP: "2.5" })).toEqual([
      "BACKUP_KEEP: debe ser un número entero de respaldos diarios",
    ]);
    expect(bootProblems({ BACKUP_KEEP: "muchos" })).toEqual([
      "BACKUP_KEEP: debe ser un número de respaldos diarios",
    ]);
  });

  it("writes backups beside the embedded database unless BACKUP_DIR says where", () => {
    expect(backupDirectory(parseEnv({ AUTH_SECRET: SECRET, DATA_DIR: "/srv/clinica" }))).toBe(
      "/srv/clinica/backups",
    );
    expect(backupDirectory(parseEnv({ AUTH_SECRET: SECRET, BACKUP_DIR: "/respaldos" }))).toBe("/respaldos");
    expect(backupDirectory(parseEnv({ AUTH_SECRET: SECRET, DATA_DIR: "memory://" }))).toBeUndefined();
  });

  it("applies the defaults", () => {
    const env = parseEnv({ AUTH_SECRET: SECRET });
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: "./data", MEDIA_BASE_URL: "/media", SEED_DEMO: false });
    expect(isDemoMode(env)).toBe(false);
    expect(staffTwoFactorRequired(env)).toBe(true);
  });

  it("is in demo mode only with SEED_DEMO, on the embedded database as on PostgreSQL", () => {
    expect(isDemoMode(parseEnv({ AUTH_SECRET: SECRET }))).toBe(false);
    expect(isDemoMode(parseEnv({ SEED_DEMO: "1" }))).toBe(true);
    expect(isDemoMode(parseEnv({ DATABASE_URL: "postgres://localhost/x", AUTH_SECRET: SECRET }))).toBe(false);
    expect(isDemoMode(parseEnv({ DATABASE_URL: "postgres://localhost/x", SEED_DEMO: "1" }))).toBe(true);
    expect(staffTwoFactorRequired(parseEnv({ SEED_DEMO: "1" }))).toBe(false);
  });

  it("requires AUTH_SECRET (32+ characters) outside demo mode", () => {
    const missing = captureError(() => parseEnv({}));
    expect(missing).toBeInstanceOf(EnvError);
    expect((missing as EnvError).problems).toEqual([expect.stringMatching(/^AUTH_SECRET: obligatorio/)]);
    const short = captureError(() => parseEnv({ AUTH_SECRET: "corto" }));
    expect((short as EnvError).problems).toEqual([expect.stringMatching(/^AUTH_SECRET: al menos 32/)]);
    expect(parseEnv({ SEED_DEMO: "1" }).AUTH_SECRET).toBeUndefined();
  });

  it("refuses demo mode on an https deployment unless explicitly allowed", () => {
    const refused = captureError(() =>
      parseEnv({ SEED_DEMO: "1", PUBLIC_BASE_URL: "https://clinica.example" }),
    );
    expect((refused as EnvError).problems).toEqual([
      expect.stringMatching(/^SEED_DEMO: el modo demostración/),
    ]);
    expect(
      isDemoMode(
        parseEnv({
          SEED_DEMO: "1",
          PUBLIC_BASE_URL: "https://clinica.example",
          ALLOW_DEMO_IN_PRODUCTION: "1",
        }),
      ),
    ).toBe(true);
    // The production build run locally over plain http (the quick start) keeps working.
    expect(
      isDemoMode(
        parseEnv({ SEED_DEMO: "1", NODE_ENV: "production", PUBLIC_BASE_URL: "http://localhost:3000" }),
      ),
    ).toBe(true);
  });

  it("lists every bad variable at once", () => {
    const error = captureError(() =>
      parseEnv({
        PORT: "abc",
        DATABASE_URL: "mysql://x",
        CLINIC_PHONE: "123",
        LOG_LEVEL: "loud",
        AUTH_SECRET: SECRET,
      }),
    );
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems;
    expect(problems).toHaveLength(4);
    for (const name of ["PORT", "DATABASE_URL", "CLINIC_PHONE", "LOG_LEVEL"]) {
      expect(problems.some((problem) => problem.startsWith(`${name}:`))).toBe(true);
    }
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "", AUTH_SECRET: SECRET }).DATABASE_URL).toBeUndefined();
  });

  it("lets the clinic facts be overridden", () => {
    const facts = clinicFacts(
      parseEnv({
        CLINIC_PHONE: "+56229998888",
        PUBLIC_BASE_URL: "https://clinica.example",
        AUTH_SECRET: SECRET,
      }),
    );
    expect(facts.phone).toBe("+56229998888");
    expect(facts.siteUrl).toBe("https://clinica.example");
  });

  it("takes a previous webhook secret during a rotation, only with the new one", () => {
    const current = "webhook-secret-new-0123456789";
    const previous = "webhook-secret-old-0123456789";
    const both = parseEnv({
      AUTH_SECRET: SECRET,
      WHATSAPP_WEBHOOK_SECRET: current,
      WHATSAPP_WEBHOOK_SECRET_PREVIOUS: previous,
    });
    expect(whatsAppWebhookSecrets(both)).toEqual([current, previous]);
    expect(whatsAppWebhookSecrets(parseEnv({ AUTH_SECRET: SECRET }))).toEqual([]);
    const alone = captureError(() =>
      parseEnv({ AUTH_SECRET: SECRET, WHATSAPP_WEBHOOK_SECRET_PREVIOUS: previous }),
    );
    expect((alone as EnvError).problems).toEqual([
      expect.stringMatching(/^WHATSAPP_WEBHOOK_SECRET_PREVIOUS: solo durante un cambio de secreto/),
    ]);
    const short = captureError(() =>
      parseEnv({
        AUTH_SECRET: SECRET,
        WHATSAPP_WEBHOOK_SECRET: current,
        WHATSAPP_WEBHOOK_SECRET_PREVIOUS: "x",
      }),
    );
    expect((short as EnvError).problems).toEqual([
      "WHATSAPP_WEBHOOK_SECRET_PREVIOUS: al menos 16 caracteres aleatorios",
    ]);
  });

  it("reads the webhook allow-list and names the entries that are not addresses or ranges", () => {
    expect(
      parseEnv({ AUTH_SECRET: SECRET, WHATSAPP_WEBHOOK_ALLOW_IPS: "203.0.113.5, 198.51.100.0/24" })
        .WHATSAPP_WEBHOOK_ALLOW_IPS,
    ).toEqual(["203.0.113.5/32", "198.51.100.0/24"]);
    expect(parseEnv({ AUTH_SECRET: SECRET }).WHATSAPP_WEBHOOK_ALLOW_IPS).toEqual([]);
    const bad = captureError(() =>
      parseEnv({ AUTH_SECRET: SECRET, WHATSAPP_WEBHOOK_ALLOW_IPS: "203.0.113.5, infobip.com, 10.0.0.0/40" }),
    );
    expect((bad as EnvError).problems).toEqual([
      "WHATSAPP_WEBHOOK_ALLOW_IPS: no son direcciones IP ni rangos CIDR: infobip.com, 10.0.0.0/40 (p. ej. 203.0.113.5, 198.51.100.0/24)",
    ]);
  });

  describe("Google sign-in (issue 24, item 19)", () => {
    it("is the configured provider when GOOGLE_CLIENT_ID and its secret are set, in any mode", () => {
      for (const extra of [{ AUTH_SECRET: SECRET }, { SEED_DEMO: "1" }]) {
        const live = parseEnv({
          ...extra,
          GOOGLE_CLIENT_ID: "id-real",
          GOOGLE_CLIENT_SECRET: "secreto-real",
        });
        expect(googleSettings(live)).toEqual({
          mode: "live",
          clientId: "id-real",
          clientSecret: "secreto-real",
          discoveryUrl: "https://accounts.google.com/.well-known/openid-configuration",
        });
      }
    });

    it("is demo mode's own provider at /google-demo without credentials, and absent outside demo mode", () => {
      expect(googleSettings(parseEnv({ AUTH_SECRET: SECRET }))).toBeNull();
      expect(
        googleSettings(parseEnv({ SEED_DEMO: "1", PUBLIC_BASE_URL: "http://demo.local:8080/" })),
      ).toEqual({
        mode: "demo",
        clientId: "clinica-demo",
        clientSecret: "clinica-demo-google-secret",
        discoveryUrl: "http://demo.local:8080/google-demo/.well-known/openid-configuration",
        endpoints: {
          authorizationUrl: "http://demo.local:8080/google-demo/auth",
          tokenUrl: "http://demo.local:8080/google-demo/token",
          userInfoUrl: "http://demo.local:8080/google-demo/me",
        },
      });
      expect(googleSettings(parseEnv({ SEED_DEMO: "1", GOOGLE_DEMO: "0" }))).toBeNull();
    });

    it("never serves the demo provider on a real deployment: demo mode itself is refused over https", () => {
      expect(
        captureError(() => parseEnv({ SEED_DEMO: "1", PUBLIC_BASE_URL: "https://clinica.cl" })),
      ).toBeInstanceOf(EnvError);
    });
  });

  describe("Transbank Webpay Plus (ADR 036)", () => {
    const CODE = "597012345678";
    const KEY = "clave-secreta-de-la-clinica-0123456789";

    it("is off without a commerce, demo in demo mode, live when configured", () => {
      const off = parseEnv({ AUTH_SECRET: SECRET });
      expect(webpayMode(off)).toBe("off");
      expect(off.TRANSBANK_TIMEOUT_MS).toBe(10_000);
      expect(webpayMode(parseEnv({ SEED_DEMO: "1" }))).toBe("demo");
      const live = parseEnv({
        SEED_DEMO: "1",
        TRANSBANK_COMMERCE_CODE: CODE,
        TRANSBANK_API_KEY: KEY,
        TRANSBANK_ENVIRONMENT: "integration",
        TRANSBANK_TIMEOUT_MS: "5000",
      });
      expect(webpayMode(live)).toBe("live");
      expect(webpaySettings(live)).toEqual({
        mode: "live",
        commerceCode: CODE,
        apiKey: KEY,
        environment: "integration",
        timeoutMs: 5_000,
        publicBaseUrl: "http://localhost:3000",
      });
      expect(
        parseEnv({
          AUTH_SECRET: SECRET,
          TRANSBANK_COMMERCE_CODE: CODE,
          TRANSBANK_API_KEY: KEY,
          TRANSBANK_ENVIRONMENT: "http://127.0.0.1:3296",
        }).TRANSBANK_ENVIRONMENT,
      ).toBe("http://127.0.0.1:3296");
    });

    it("takes the commerce code and the key together, and the environment with them", () => {
      expect(bootProblems({ TRANSBANK_COMMERCE_CODE: CODE, TRANSBANK_ENVIRONMENT: "integration" })).toEqual([
        "TRANSBANK_API_KEY: TRANSBANK_COMMERCE_CODE y TRANSBANK_API_KEY van juntos",
      ]);
      expect(bootProblems({ TRANSBANK_API_KEY: KEY, TRANSBANK_ENVIRONMENT: "integration" })).toEqual([
        "TRANSBANK_COMMERCE_CODE: TRANSBANK_COMMERCE_CODE y TRANSBANK_API_KEY van juntos",
      ]);
      expect(bootProblems({ TRANSBANK_COMMERCE_CODE: CODE, TRANSBANK_API_KEY: KEY })).toEqual([
        expect.stringMatching(
          /^TRANSBANK_ENVIRONMENT: obligatorio con TRANSBANK_COMMERCE_CODE y TRANSBANK_API_KEY/,
        ),
      ]);
      expect(bootProblems({ TRANSBANK_ENVIRONMENT: "integration" })).toEqual([
        "TRANSBANK_ENVIRONMENT: solo junto a TRANSBANK_COMMERCE_CODE y TRANSBANK_API_KEY",
      ]);
    });

    it("checks each value's shape, in Spanish", () => {
      const found = bootProblems({
        TRANSBANK_COMMERCE_CODE: "5970-1234",
        TRANSBANK_API_KEY: "corta",
        TRANSBANK_ENVIRONMENT: "staging",
        TRANSBANK_TIMEOUT_MS: "50",
      });
      expect(found).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^TRANSBANK_COMMERCE_CODE: el código de comercio de Transbank: 12 dígitos/),
          expect.stringMatching(/^TRANSBANK_API_KEY: la llave secreta que entrega Transbank/),
          expect.stringMatching(/^TRANSBANK_ENVIRONMENT: usa integration, production o la URL/),
          "TRANSBANK_TIMEOUT_MS: al menos 100 ms",
        ]),
      );
      expect(found).toHaveLength(4);
    });

    it("reconciles every 15 s unless PAYMENT_RECONCILIATION_MS says otherwise, within 1 s and 10 min", () => {
      expect(parseEnv({ AUTH_SECRET: SECRET }).PAYMENT_RECONCILIATION_MS).toBe(15_000);
      expect(
        parseEnv({ AUTH_SECRET: SECRET, PAYMENT_RECONCILIATION_MS: "5000" }).PAYMENT_RECONCILIATION_MS,
      ).toBe(5_000);
      // A Webpay call must end within the 15-second commit claim.
      expect(bootProblems({ TRANSBANK_TIMEOUT_MS: "20000" })).toEqual([
        "TRANSBANK_TIMEOUT_MS: a lo más 12000 ms: una confirmación debe terminar antes de que su reserva de 15 s caduque",
      ]);
      expect(bootProblems({ PAYMENT_RECONCILIATION_MS: "500" })).toEqual([
        "PAYMENT_RECONCILIATION_MS: al menos 1000 ms",
      ]);
      expect(bootProblems({ PAYMENT_RECONCILIATION_MS: "3600000" })).toEqual([
        "PAYMENT_RECONCILIATION_MS: a lo más 600000 ms",
      ]);
    });

    it("runs production only on an https site and never with the public integration commerce", () => {
      const production = {
        TRANSBANK_COMMERCE_CODE: CODE,
        TRANSBANK_API_KEY: KEY,
        TRANSBANK_ENVIRONMENT: "production",
      };
      expect(bootProblems(production)).toEqual([
        expect.stringMatching(/^PUBLIC_BASE_URL: con TRANSBANK_ENVIRONMENT=production debe ser la URL https/),
      ]);
      expect(bootProblems({ ...production, PUBLIC_BASE_URL: "http://clinica.example" })).toHaveLength(1);
      expect(
        bootProblems({
          ...production,
          PUBLIC_BASE_URL: "https://clinica.example",
          TRANSBANK_COMMERCE_CODE: "597055555532",
        }),
      ).toEqual([
        expect.stringMatching(/^TRANSBANK_COMMERCE_CODE: es el código de comercio público de integración/),
      ]);
      expect(
        webpayMode(
          parseEnv({ AUTH_SECRET: SECRET, ...production, PUBLIC_BASE_URL: "https://clinica.example" }),
        ),
      ).toBe("live");
    });
  });
});
