import http from "node:http";
import type { AddressInfo } from "node:net";
import { startWhatsAppFake, type WhatsAppFake } from "~/integrations/whatsapp/whatsapp-fake";
import { WHATSAPP_WEBHOOK_SECRET_HEADER } from "~/integrations/whatsapp/whatsapp-schemas";

/**
 * The WhatsApp side of an integration test: the fake provider (Infobip's contract over HTTP), optionally a relay
 * standing in for our webhook URLs, and the app's WHATSAPP_* variables pointed at the fake. Start it before anything
 * reads `env()` (it is read once and cached): import the app's modules dynamically after this.
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

export const REPORTS_PATH = "/api/whatsapp/reports";
export const INBOUND_PATH = "/api/whatsapp/inbound";
export type WebhookPath = typeof REPORTS_PATH | typeof INBOUND_PATH;

/** A provider's request to one of our webhooks: no Origin, no cookie, only `headers` (usually the secret header). */
export function webhookRequest(
  path: WebhookPath,
  body: BodyInit,
  headers: Record<string, string>,
  method = "POST",
): Request {
  return new Request(`http://localhost:3000${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(method === "POST" ? { body, duplex: "half" } : {}),
  } as RequestInit);
}

/** What the fake posted to the relay, as it arrived. */
export interface Relayed {
  path: WebhookPath;
  secret: string | undefined;
  body: string;
}

/**
 * Stands in for the production server's webhook URLs: each post of the fake becomes a Fetch Request given to
 * `deliver` (the route's action), whose answer goes back to the fake. Every post is kept, to replay it.
 */
export interface WhatsAppRelay {
  /** Origin of the relay: the fake posts to `${url}/api/whatsapp/reports` and `${url}/api/whatsapp/inbound`. */
  url: string;
  received: Relayed[];
  /** The bodies posted to `path`, oldest first. */
  bodiesTo(path: WebhookPath): string[];
  close(): Promise<void>;
}

export type WebhookDelivery = (path: WebhookPath, request: Request) => Promise<Response>;

async function startRelay(deliver: WebhookDelivery): Promise<WhatsAppRelay> {
  const received: Relayed[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path: WebhookPath = request.url === INBOUND_PATH ? INBOUND_PATH : REPORTS_PATH;
      const secret = request.headers[WHATSAPP_WEBHOOK_SECRET_HEADER.toLowerCase()];
      received.push({ path, secret: Array.isArray(secret) ? secret[0] : secret, body });
      const headers: Record<string, string> =
        secret === undefined ? {} : { [WHATSAPP_WEBHOOK_SECRET_HEADER]: String(secret) };
      void deliver(path, webhookRequest(path, body, headers))
        .then(async (answer) => response.writeHead(answer.status).end(await answer.text()))
        .catch(() => response.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    bodiesTo: (path) => received.filter((entry) => entry.path === path).map((entry) => entry.body),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface WhatsAppHarness {
  fake: WhatsAppFake;
  /** Present when the harness was started with `webhooks`. */
  relay: WhatsAppRelay | undefined;
  /** Waits for the fake's pending reports, then forgets what it and the relay saw. */
  reset(): Promise<void>;
  /** Closes the fake and the relay and removes the WHATSAPP_* variables. */
  close(): Promise<void>;
}

export async function startWhatsAppHarness(options: {
  apiKey: string;
  secret: string;
  sender: string;
  /** How long the fake waits before posting a delivery report. */
  reportDelayMs?: number;
  /**
   * Where the relay hands the fake's posts (the route actions, imported after this returns: called only when the
   * fake posts). Without it, the fake posts nothing back.
   */
  webhooks?: WebhookDelivery;
}): Promise<WhatsAppHarness> {
  const relay = options.webhooks ? await startRelay(options.webhooks) : undefined;
  const fake = await startWhatsAppFake({
    apiKey: options.apiKey,
    ...(relay
      ? {
          reportsUrl: `${relay.url}${REPORTS_PATH}`,
          inboundUrl: `${relay.url}${INBOUND_PATH}`,
          reportsSecret: options.secret,
          reportDelayMs: options.reportDelayMs,
        }
      : {}),
  });
  setWhatsAppEnv({
    baseUrl: fake.url,
    apiKey: options.apiKey,
    sender: options.sender,
    secret: options.secret,
  });
  return {
    fake,
    relay,
    async reset() {
      await fake.idle();
      fake.reset();
      if (relay) relay.received.length = 0;
    },
    async close() {
      await fake.close();
      await relay?.close();
      clearWhatsAppEnv();
    },
  };
}
