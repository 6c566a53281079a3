import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "~/lib/base/env.server";

/**
 * Secrets a queued message needs only until it is sent (a one-time code, a reminder's single-use links), kept
 * encrypted where they wait (AES-256-GCM; ADR 029). The key is derived from AUTH_SECRET, never stored in the
 * database, so a copy of the database alone opens nothing. Without AUTH_SECRET (demo mode only) the key lives in
 * this process: a message still queued at a restart can no longer be opened and fails.
 */

const VERSION = "v1";
const fallbackSecret = randomBytes(32);
let derived: { from: string | Buffer; key: Buffer } | undefined;

function key(): Buffer {
  const secret = env().AUTH_SECRET ?? fallbackSecret;
  if (derived?.from !== secret) {
    derived = {
      from: secret,
      key: Buffer.from(hkdfSync("sha256", secret, "clinica", "sealed-message-secrets", 32)),
    };
  }
  return derived.key;
}

/** `value` as JSON, encrypted and authenticated: `v1.<iv>.<ciphertext>.<tag>` (base64url). */
export function seal(value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** What `seal` sealed; throws when it was altered or sealed with another key. */
export function unseal(sealed: string): unknown {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== VERSION || !iv || !body || !tag) throw new Error("sealed value: unknown format");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  const json = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]);
  return JSON.parse(json.toString("utf8")) as unknown;
}
