import { createHash, timingSafeEqual } from "node:crypto";
import { WHATSAPP_WEBHOOK_SECRET_HEADER } from "~/integrations/whatsapp/whatsapp-schemas";
import { clientIp } from "~/lib/client-ip.server";
import { env, whatsAppWebhookSecrets, type Env } from "~/lib/base/env.server";
import { ipAllowList } from "~/lib/base/ip-allow-list.server";

/**
 * What the provider's webhooks (`/api/whatsapp/reports`, `/api/whatsapp/inbound`) share: POST only, the provider's
 * addresses when an allow-list is configured, the shared secret, the body limit and JSON. Server to server: no
 * session and no Origin (React Router's own origin check only refuses a mismatching Origin), so the secret is the
 * guard.
 */

/** The server's limit on any request body (server.mjs), also applied here when the route is called directly. */
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/**
 * Whether the request carries one of the accepted secrets in the provider's header: WHATSAPP_WEBHOOK_SECRET, or
 * during a rotation WHATSAPP_WEBHOOK_SECRET_PREVIOUS (ADR 034). Compared in constant time over equal-length
 * digests, each of them every time, so neither a secret's content, its length nor which one matched leaks through
 * timing. Without a configured secret every request is refused: an open webhook would let anyone mark messages
 * delivered or invent leads.
 */
export function webhookSecretMatches(request: Request, secrets = whatsAppWebhookSecrets()): boolean {
  const given = request.headers.get(WHATSAPP_WEBHOOK_SECRET_HEADER);
  if (given === null) return false;
  const givenDigest = digest(given);
  let matches = false;
  for (const secret of secrets) matches = timingSafeEqual(givenDigest, digest(secret)) || matches;
  return matches;
}

const allowListByEnv = new WeakMap<Env, (ip: string) => boolean>();

/**
 * Whether the client (its address as server.mjs resolved it from the trusted proxies) is one of the provider's
 * addresses in WHATSAPP_WEBHOOK_ALLOW_IPS; every client when the list is empty.
 */
export function webhookClientAllowed(request: Request, current: Env = env()): boolean {
  let allows = allowListByEnv.get(current);
  if (!allows) {
    allows = ipAllowList(current.WHATSAPP_WEBHOOK_ALLOW_IPS);
    allowListByEnv.set(current, allows);
  }
  return allows(clientIp(request));
}

const noStore = { "Cache-Control": "no-store" };

export function webhookAnswer(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...noStore, ...headers } });
}

/** The body as text, or null once it passes `limit` bytes (read no further). */
async function readLimited(request: Request, limit: number): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** 405 with `Allow: POST`: the answer to every method but POST (the routes' loader answers GET and HEAD). */
export function webhookMethodNotAllowed(): Response {
  return webhookAnswer({ detail: "Method not allowed" }, 405, { Allow: "POST" });
}

/**
 * The webhook's JSON body once the request passed the checks, or the answer to give instead: 405 for another
 * method, 403 from an address outside the allow-list, 401 without an accepted secret (both checked before the body
 * is read), 413 over the limit, 400 for non-JSON.
 */
export async function readWebhookJson(
  request: Request,
): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  if (request.method !== "POST") return { ok: false, response: webhookMethodNotAllowed() };
  if (!webhookClientAllowed(request)) {
    return { ok: false, response: webhookAnswer({ detail: "Address not allowed" }, 403) };
  }
  if (!webhookSecretMatches(request)) {
    return { ok: false, response: webhookAnswer({ detail: "Missing or wrong webhook secret" }, 401) };
  }
  let text: string | null;
  try {
    text = await readLimited(request, WEBHOOK_BODY_LIMIT_BYTES);
  } catch {
    // The server cut a body over its own limit while it streamed (server.mjs answers 413 whatever we say).
    text = null;
  }
  if (text === null) return { ok: false, response: webhookAnswer({ detail: "The body is too large" }, 413) };
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, response: webhookAnswer({ detail: "The body is not JSON" }, 400) };
  }
}
