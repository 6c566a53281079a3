import { createHash, randomBytes } from "node:crypto";

/**
 * The secret of a reminder link: 32 random bytes (256 bits) in base64url, 43 characters. Unguessable, so it needs
 * no signature to be unforgeable; the database keeps only its SHA-256 (a fast hash is enough for a random secret of
 * this size), whose row says what the link may do and whether it was used.
 */
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newActionToken(): string {
  return randomBytes(TOKEN_BYTES).toString("base64url");
}

export function hashActionToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Anything else is refused before the database is asked. */
export function isWellFormedActionToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}
