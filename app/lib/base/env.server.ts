import path from "node:path";
import { z } from "zod";
import { defaultClinic, type ClinicFacts } from "~/config/clinic";
import { parseIpAllowList } from "./ip-allow-list.server";

/** The only reader of process.env. Fails at boot listing every bad variable. */
const booleanFlag = z
  .enum(["0", "1", "true", "false"])
  .optional()
  .transform((value) => value === "1" || value === "true");

const optionalUrl = z.url().optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Where backups go (ADR 046): the daily ones of the embedded database and `npm run backup`'s; default DATA_DIR/backups. */
  BACKUP_DIR: z
    .string()
    .trim()
    .min(1, "la carpeta de los respaldos, p. ej. /var/respaldos/clinica")
    .optional(),
  /** How many daily backups of the embedded database are kept (the oldest beyond it are deleted). */
  BACKUP_KEEP: z.coerce
    .number({ error: "debe ser un número de respaldos diarios" })
    .int("debe ser un número entero de respaldos diarios")
    .min(1, "al menos 1 respaldo diario")
    .max(3650, "a lo más 3650 respaldos diarios")
    .default(14),
  /** Tests only: a PGlite dump (tar) an in-memory database (DATA_DIR=memory://) starts from; ignored otherwise. */
  TEST_PGLITE_TEMPLATE: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "debe empezar con postgres:// o postgresql://")
    .optional(),
  SEED_DEMO: booleanFlag,
  /** Demo mode's staff data (issue 24: a few hundred leads, messages, chats, syncs); on unless "0"/"false". */
  SEED_DEMO_STAFF: z.enum(["0", "1", "true", "false"]).optional(),
  ALLOW_DEMO_IN_PRODUCTION: booleanFlag,
  PUBLIC_BASE_URL: optionalUrl,
  MEDIA_BASE_URL: z.string().min(1).default("/media"),
  MEDIA_ACCOUNT_ID: z
    .string()
    .regex(/^[\w-]{1,64}$/, "solo letras, números, _ y -")
    .default("clinica-demo"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Checked in full by server.mjs (server/proxy-trust.mjs); here only what can never be right. */
  TRUST_PROXY: z
    .string()
    .refine(
      (value) => !/^\s*(true|\*)\s*$/i.test(value),
      "«true» confiaría en cualquier cliente: indica saltos o direcciones",
    )
    .optional(),
  SSR_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Bearer token for GET /metrics (Prometheus); unset = /metrics answers 404 to everyone (issue 25). */
  METRICS_TOKEN: z
    .string()
    .min(24, "al menos 24 caracteres aleatorios")
    .regex(/^[\x21-\x7e]+$/, "solo caracteres visibles, sin espacios")
    .optional(),
  /** A second listener on 127.0.0.1 that serves only GET /metrics, without the token (server.mjs reads it). */
  METRICS_PORT: z.coerce
    .number({ error: "debe ser un número de puerto" })
    .int("debe ser un número de puerto")
    .min(1, "debe estar entre 1 y 65535")
    .max(65535, "debe estar entre 1 y 65535")
    .optional(),
  /**
   * After SIGTERM, how long the server keeps accepting connections while /readyz answers 503, so that the proxy
   * takes the instance out before it stops listening (server.mjs reads it; 0 = stop listening at once).
   */
  SHUTDOWN_DELAY_MS: z.coerce
    .number({ error: "debe ser un número de milisegundos" })
    .int("debe ser un número entero de milisegundos")
    .min(0, "no puede ser negativo")
    .max(60_000, "a lo más 60000 ms (un minuto)")
    .default(0),
  AUTH_SECRET: z.string().min(32, "al menos 32 caracteres aleatorios").optional(),
  AUTH_EMAIL_VERIFICATION: z.enum(["optional", "required"]).default("optional"),
  AUTH_STAFF_2FA: z.enum(["optional", "required"]).optional(),
  AUTH_MAX_CONCURRENT_HASHES: z.coerce.number().int().min(1).max(16).default(2),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "debe empezar con smtp:// o smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Río Clínica <no-responder@clinica.example>"),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_DISCOVERY_URL: z.url().default("https://accounts.google.com/.well-known/openid-configuration"),
  /** GOOGLE_DEMO=0 turns demo mode's own "Google (demostración)" off (only read in demo mode). */
  GOOGLE_DEMO: z
    .enum(["0", "1", "true", "false"])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "1" || value === "true")),
  MAX_UPCOMING_APPOINTMENTS: z.coerce.number().int().min(1).max(100).default(10),
  CLINIC_NAME: z.string().min(1).optional(),
  CLINIC_PHONE: z
    .string()
    .regex(/^\+56\d{9}$/, "formato E.164 chileno, p. ej. +56223456789")
    .optional(),
  CLINIC_MOBILE: z
    .string()
    .regex(/^\+569\d{8}$/, "móvil E.164 chileno, p. ej. +56987654321")
    .optional(),
  CLINIC_EMAIL: z.email().optional(),
  CLINIC_ADMIN_EMAIL: z.email().optional(),
  CLINIC_PRIVACY_EMAIL: z.email().optional(),
  CLINIC_ADDRESS: z.string().min(1).optional(),
  CLINIC_REVIEWS_URL: optionalUrl,
  WHATSAPP_BASE_URL: optionalUrl,
  WHATSAPP_API_KEY: z.string().min(8, "al menos 8 caracteres").optional(),
  WHATSAPP_SENDER: z
    .string()
    .regex(
      /^\+?\d{8,15}$/,
      "el número de WhatsApp registrado: 8 a 15 dígitos con el código de país, p. ej. 56987654321",
    )
    .optional(),
  WHATSAPP_TEST_MODE: booleanFlag,
  WHATSAPP_WEBHOOK_SECRET: z.string().min(16, "al menos 16 caracteres aleatorios").optional(),
  /** The secret being rotated out: accepted as well until the provider sends the new one (ADR 034). */
  WHATSAPP_WEBHOOK_SECRET_PREVIOUS: z.string().min(16, "al menos 16 caracteres aleatorios").optional(),
  /** The provider's addresses (IPs or CIDR ranges, comma- or space-separated); empty = any address. */
  WHATSAPP_WEBHOOK_ALLOW_IPS: z
    .string()
    .default("")
    .transform((value, ctx) => {
      const { entries, invalid } = parseIpAllowList(value);
      if (invalid.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `no son direcciones IP ni rangos CIDR: ${invalid.join(", ")} (p. ej. 203.0.113.5, 198.51.100.0/24)`,
        });
      }
      return entries;
    }),
  WHATSAPP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // Dentalink (ADR 017). Without a key (or with a placeholder) the client runs in mock mode.
  DENTALINK_API_KEY: z.string().trim().min(1).optional(),
  DENTALINK_BASE_URL: z
    .url({
      protocol: /^https?$/,
      error: "debe ser una URL https, p. ej. https://api.dentalink.healthatom.com/api/v1",
    })
    .default("https://api.dentalink.healthatom.com/api/v1"),
  DENTALINK_TIMEOUT_MS: z.coerce
    .number({ error: "debe ser un número de milisegundos" })
    .int("debe ser un número entero de milisegundos")
    .min(100, "al menos 100 ms")
    .max(60_000, "a lo más 60000 ms")
    .default(8_000),
  DENTALINK_DASHBOARD_URL: z
    .url({
      protocol: /^https?$/,
      error: "debe ser la URL https del panel de Dentalink de la clínica",
    })
    .optional(),
  DENTALINK_MOCK_DELAYS: z
    .enum(["0", "1", "true", "false"], { error: "usa 1 (esperas de la especificación) o 0 (sin esperas)" })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "1" || value === "true")),
  // Transbank Webpay Plus (ADR 036): the commerce code and its key go together; without them payments are off
  // (or, in demo mode, served by the fake inside the app).
  TRANSBANK_COMMERCE_CODE: z
    .string()
    .trim()
    .regex(/^\d{12}$/, "el código de comercio de Transbank: 12 dígitos, p. ej. 597012345678")
    .optional(),
  TRANSBANK_API_KEY: z
    .string()
    .trim()
    .min(8, "la llave secreta que entrega Transbank (al menos 8 caracteres)")
    .optional(),
  TRANSBANK_ENVIRONMENT: z
    .string()
    .trim()
    .refine(
      (value) => value === "integration" || value === "production" || /^https?:\/\/[^\s/]+/.test(value),
      {
        message: "usa integration, production o la URL http(s) de un Webpay de prueba",
      },
    )
    .optional(),
  TRANSBANK_TIMEOUT_MS: z.coerce
    .number({ error: "debe ser un número de milisegundos" })
    .int("debe ser un número entero de milisegundos")
    .min(100, "al menos 100 ms")
    // A commit must end before its 15-second claim lapses (COMMIT_CLAIM_SECONDS, ADR 036).
    .max(12_000, "a lo más 12000 ms: una confirmación debe terminar antes de que su reserva de 15 s caduque")
    .default(10_000),
  // How often open Webpay attempts and held bookings are reconciled (ADR 036); the payments crash test shortens it.
  PAYMENT_RECONCILIATION_MS: z.coerce
    .number({ error: "debe ser un número de milisegundos" })
    .int("debe ser un número entero de milisegundos")
    .min(1_000, "al menos 1000 ms")
    .max(600_000, "a lo más 600000 ms")
    .default(15_000),
  // A pause after each table an export reads (ADR 037): spreads a big build's queries; the browser test sets it so
  // that the progress is seen. 0 (no pause) by default.
  DATA_EXPORT_PACE_MS: z.coerce
    .number({ error: "debe ser un número de milisegundos" })
    .int("debe ser un número entero de milisegundos")
    .min(0, "no puede ser negativo")
    .max(2_000, "a lo más 2000 ms")
    .default(0),
  // Guest chat platform (served by this app, so the widget works out of the box) and virtual dentist (ADR 032, 033).
  CHAT_ACCOUNT_ID: z
    .string()
    .regex(/^[\w-]{1,64}$/, "solo letras, números, _ y -")
    .default("clinica-chat"),
  CHAT_AGENT_ID: z
    .string()
    .regex(/^[\w-]{1,64}$/, "solo letras, números, _ y -")
    .default("dentist-bot"),
  /** Origins besides our own that may frame the room page, space- or comma-separated. */
  CHAT_ALLOWED_ORIGINS: z.string().default(""),
  /** Where the widget finds the platform; empty = this server. */
  CHAT_BASE_URL: optionalUrl,
  /** Messages one chat guest may post per minute (the bench, one message per second per room, raises it). */
  CHAT_MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Event streams one chat guest (and so its room) may hold open on an instance (the bench raises it). */
  CHAT_STREAMS_PER_GUEST: z.coerce.number().int().min(1).max(1000).default(5),
  /** Event streams one client address (IPv6 per /64) may hold open on an instance. */
  CHAT_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(20),
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  /** The model's output cap per reply (max_tokens); ~4 characters a token keeps a reply under the 4,000 stored. */
  LLM_MAX_TOKENS: z.coerce.number().int().min(16).max(4000).default(700),
  /** The LLM's budget (calls): per client address and in all, per hour and per day; past it the offline agent answers. */
  LLM_CALLS_PER_ADDRESS_HOUR: z.coerce.number().int().min(0).max(100_000).default(20),
  LLM_CALLS_PER_ADDRESS_DAY: z.coerce.number().int().min(0).max(100_000).default(60),
  LLM_CALLS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(300),
  LLM_CALLS_PER_DAY: z.coerce.number().int().min(0).max(1_000_000).default(2000),
});

export type Env = z.infer<typeof envSchema>;

const productionChecks = envSchema.superRefine((value, ctx) => {
  // ADR 007: demo mode (published passwords, optional staff 2FA, readable e-mails) is opt-in and
  // never runs on a real deployment by accident.
  if (value.SEED_DEMO && value.PUBLIC_BASE_URL?.startsWith("https://") && !value.ALLOW_DEMO_IN_PRODUCTION) {
    ctx.addIssue({
      code: "custom",
      path: ["SEED_DEMO"],
      message:
        "el modo demostración no se permite con PUBLIC_BASE_URL https (un despliegue real); quita SEED_DEMO o define ALLOW_DEMO_IN_PRODUCTION=1",
    });
  }
  if (!value.SEED_DEMO && !value.AUTH_SECRET) {
    ctx.addIssue({
      code: "custom",
      path: ["AUTH_SECRET"],
      message:
        "obligatorio fuera del modo demostración (al menos 32 caracteres aleatorios, el mismo en cada instancia)",
    });
  }
  if (value.WHATSAPP_API_KEY && !value.WHATSAPP_TEST_MODE) {
    // Without a key WhatsApp runs in test mode (nothing is sent); with one, the real sender needs both.
    for (const name of ["WHATSAPP_BASE_URL", "WHATSAPP_SENDER"] as const) {
      if (!value[name]) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "obligatorio con WHATSAPP_API_KEY (o define WHATSAPP_TEST_MODE=1)",
        });
      }
    }
  }
  if (value.WHATSAPP_WEBHOOK_SECRET_PREVIOUS && !value.WHATSAPP_WEBHOOK_SECRET) {
    ctx.addIssue({
      code: "custom",
      path: ["WHATSAPP_WEBHOOK_SECRET_PREVIOUS"],
      message: "solo durante un cambio de secreto, junto al nuevo en WHATSAPP_WEBHOOK_SECRET",
    });
  }
  checkTransbank(value, ctx);
  if (Boolean(value.GOOGLE_CLIENT_ID) !== Boolean(value.GOOGLE_CLIENT_SECRET)) {
    ctx.addIssue({
      code: "custom",
      path: ["GOOGLE_CLIENT_SECRET"],
      message: "GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET van juntos",
    });
  }
});

/** The public integration commerce of Webpay Plus (Transbank's docs and SDK): never a real clinic's. */
const TRANSBANK_INTEGRATION_COMMERCE_CODE = "597055555532";

/** Webpay Plus (ADR 036): code, key and environment together; production only on an https site. */
function checkTransbank(value: z.output<typeof envSchema>, ctx: z.RefinementCtx) {
  const code = value.TRANSBANK_COMMERCE_CODE;
  const key = value.TRANSBANK_API_KEY;
  const environment = value.TRANSBANK_ENVIRONMENT;
  if (Boolean(code) !== Boolean(key)) {
    ctx.addIssue({
      code: "custom",
      path: [code ? "TRANSBANK_API_KEY" : "TRANSBANK_COMMERCE_CODE"],
      message: "TRANSBANK_COMMERCE_CODE y TRANSBANK_API_KEY van juntos",
    });
  }
  if ((code || key) && !environment) {
    ctx.addIssue({
      code: "custom",
      path: ["TRANSBANK_ENVIRONMENT"],
      message:
        "obligatorio con TRANSBANK_COMMERCE_CODE y TRANSBANK_API_KEY: integration, production o la URL de un Webpay de prueba",
    });
  }
  if (environment && !code && !key) {
    ctx.addIssue({
      code: "custom",
      path: ["TRANSBANK_ENVIRONMENT"],
      message: "solo junto a TRANSBANK_COMMERCE_CODE y TRANSBANK_API_KEY",
    });
  }
  if (environment === "production") {
    if (!value.PUBLIC_BASE_URL?.startsWith("https://")) {
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_BASE_URL"],
        message:
          "con TRANSBANK_ENVIRONMENT=production debe ser la URL https del sitio (Webpay devuelve al paciente a ella y Transbank exige https)",
      });
    }
    if (code === TRANSBANK_INTEGRATION_COMMERCE_CODE) {
      ctx.addIssue({
        code: "custom",
        path: ["TRANSBANK_COMMERCE_CODE"],
        message:
          "es el código de comercio público de integración; en producción va el código que Transbank entregó a la clínica",
      });
    }
  }
}

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuración inválida:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "EnvError";
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = productionChecks.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  return result.data;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * Where backups are written (ADR 046): BACKUP_DIR, or `backups` beside the embedded database under DATA_DIR; none for
 * an in-memory database without BACKUP_DIR.
 */
export function backupDirectory(current: Env = env()): string | undefined {
  if (current.BACKUP_DIR) return path.resolve(current.BACKUP_DIR);
  return current.DATA_DIR === "memory://" ? undefined : path.resolve(current.DATA_DIR, "backups");
}

/** The secrets a WhatsApp webhook may carry: the current one and, during a rotation, the previous one. */
export function whatsAppWebhookSecrets(current: Env = env()): string[] {
  return [current.WHATSAPP_WEBHOOK_SECRET, current.WHATSAPP_WEBHOOK_SECRET_PREVIOUS].filter(
    (secret): secret is string => Boolean(secret),
  );
}

/** Demo mode seeds the staff side's data (leads over 90 days, messages, chats, syncs) unless SEED_DEMO_STAFF=0. */
export function seedsDemoStaffData(current: Env = env()) {
  return isDemoMode(current) && current.SEED_DEMO_STAFF !== "0" && current.SEED_DEMO_STAFF !== "false";
}

/** Demo mode (demo accounts, sample data, /dev/correos) only with SEED_DEMO=1, on either database. */
export function isDemoMode(current: Env = env()) {
  return current.SEED_DEMO;
}

/** Two-factor is required for staff unless AUTH_STAFF_2FA=optional, which is the demo default. */
export function staffTwoFactorRequired(current: Env = env()) {
  return (current.AUTH_STAFF_2FA ?? (isDemoMode(current) ? "optional" : "required")) === "required";
}

/** WhatsApp sends nothing (each message is recorded as accepted in test mode) with WHATSAPP_TEST_MODE=1 or no key. */
export function whatsAppTestMode(current: Env = env()) {
  return current.WHATSAPP_TEST_MODE || !current.WHATSAPP_API_KEY;
}

/**
 * The Dentalink mock answers with the spec's delays (1.5 s for a patient, 1 s per list) when DENTALINK_MOCK_DELAYS=1,
 * or by default in demo mode outside tests; DENTALINK_MOCK_DELAYS=0 and tests answer at once.
 */
export function dentalinkMockDelays(current: Env = env()) {
  return current.DENTALINK_MOCK_DELAYS ?? (isDemoMode(current) && current.NODE_ENV !== "test");
}

/** Where demo mode serves its own OpenID provider, the "Google (demostración)" (issue 24, item 19). */
export const GOOGLE_DEMO_PATH = "/google-demo";
/** The demo provider's one client: not a secret worth the name, it only ever exists in demo mode, in this process. */
export const GOOGLE_DEMO_CLIENT = { id: "clinica-demo", secret: "clinica-demo-google-secret" } as const;

export interface GoogleSettings {
  mode: "live" | "demo";
  clientId: string;
  clientSecret: string;
  discoveryUrl: string;
  /**
   * Demo mode's provider is this very server, which does not answer yet while auth starts (Better Auth reads the
   * discovery document at start): its endpoints are given instead (oidc-provider's paths under /google-demo).
   */
  endpoints?: { authorizationUrl: string; tokenUrl: string; userInfoUrl: string };
}

/**
 * Google sign-in: "live" with GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (Google, or any OpenID provider at
 * GOOGLE_DISCOVERY_URL); in demo mode without them, "demo": the local OpenID provider server.mjs mounts at
 * /google-demo, with a choice of demo identities; otherwise null (no Google button). Never "demo" in production:
 * demo mode itself is refused with an https PUBLIC_BASE_URL (see the schema above).
 */
export function googleSettings(current: Env = env()): GoogleSettings | null {
  if (current.GOOGLE_CLIENT_ID && current.GOOGLE_CLIENT_SECRET) {
    return {
      mode: "live",
      clientId: current.GOOGLE_CLIENT_ID,
      clientSecret: current.GOOGLE_CLIENT_SECRET,
      discoveryUrl: current.GOOGLE_DISCOVERY_URL,
    };
  }
  if (!isDemoMode(current) || current.GOOGLE_DEMO === false) return null;
  const issuer = `${publicBaseUrl(current)}${GOOGLE_DEMO_PATH}`;
  return {
    mode: "demo",
    clientId: GOOGLE_DEMO_CLIENT.id,
    clientSecret: GOOGLE_DEMO_CLIENT.secret,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    endpoints: {
      authorizationUrl: `${issuer}/auth`,
      tokenUrl: `${issuer}/token`,
      userInfoUrl: `${issuer}/me`,
    },
  };
}

/**
 * Webpay Plus (ADR 036): "live" with the clinic's commerce configured, "demo" without it in demo mode (the fake
 * served inside the app at /webpay-demo, with Transbank's public integration commerce), "off" otherwise.
 */
export function webpayMode(current: Env = env()): "live" | "demo" | "off" {
  if (current.TRANSBANK_COMMERCE_CODE && current.TRANSBANK_API_KEY && current.TRANSBANK_ENVIRONMENT)
    return "live";
  return isDemoMode(current) ? "demo" : "off";
}

/**
 * The origin of a Webpay given as a URL (a fake in development and the browser tests): the checkout page's form posts
 * there, so its Content-Security-Policy must allow it. Transbank's own hosts are always allowed.
 */
export function webpayFormOrigins(current: Env = env()): string[] {
  const environment = current.TRANSBANK_ENVIRONMENT;
  if (!environment || !/^https?:\/\//.test(environment)) return [];
  try {
    return [new URL(environment).origin];
  } catch {
    return [];
  }
}

/** What the Webpay client of this process is built from (`webpayClientConfig` in integrations/webpay). */
export function webpaySettings(current: Env = env()) {
  return {
    mode: webpayMode(current),
    commerceCode: current.TRANSBANK_COMMERCE_CODE,
    apiKey: current.TRANSBANK_API_KEY,
    environment: current.TRANSBANK_ENVIRONMENT,
    timeoutMs: current.TRANSBANK_TIMEOUT_MS,
    publicBaseUrl: publicBaseUrl(current),
  };
}

export function publicBaseUrl(current: Env = env()) {
  return current.PUBLIC_BASE_URL?.replace(/\/+$/, "") ?? `http://localhost:${current.PORT}`;
}

/** Built once per env object (every request asks for them); frozen so no caller can change them for the others. */
const factsByEnv = new WeakMap<Env, ClinicFacts>();

export function clinicFacts(current: Env = env()): ClinicFacts {
  let facts = factsByEnv.get(current);
  if (!facts) {
    facts = Object.freeze(buildClinicFacts(current));
    factsByEnv.set(current, facts);
  }
  return facts;
}

function buildClinicFacts(current: Env): ClinicFacts {
  return {
    ...defaultClinic,
    name: current.CLINIC_NAME ?? defaultClinic.name,
    phone: current.CLINIC_PHONE ?? defaultClinic.phone,
    mobile: current.CLINIC_MOBILE ?? defaultClinic.mobile,
    email: current.CLINIC_EMAIL ?? defaultClinic.email,
    adminEmail: current.CLINIC_ADMIN_EMAIL ?? defaultClinic.adminEmail,
    privacyEmail: current.CLINIC_PRIVACY_EMAIL ?? defaultClinic.privacyEmail,
    address: current.CLINIC_ADDRESS ?? defaultClinic.address,
    reviewsUrl: current.CLINIC_REVIEWS_URL ?? defaultClinic.reviewsUrl,
    siteUrl: publicBaseUrl(current),
  };
}

/** The origins (besides our own) allowed to frame the chat room page, each a bare `scheme://host[:port]`. */
export function chatAllowedOrigins(current: Env = env()): string[] {
  return current.CHAT_ALLOWED_ORIGINS.split(/[\s,]+/)
    .filter(Boolean)
    .flatMap((value) => {
      try {
        const origin = new URL(value).origin;
        return origin === "null" ? [] : [origin];
      } catch {
        return [];
      }
    });
}
