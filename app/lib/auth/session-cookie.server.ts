import { getCryptoKey } from "better-auth/crypto";

/**
 * The value of cookie `name` as better-call reads it for Better Auth's getSession: the FIRST pair with that exact
 * name wins (better-auth/cookies' parseCookies keeps the last one, so it is not used here), surrounding quotes
 * are dropped and %-escapes decoded when they are valid. better-call itself is only a transitive dependency.
 */
export function readRequestCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  let index = 0;
  while (index < header.length) {
    const eqIdx = header.indexOf("=", index);
    if (eqIdx === -1) break;
    let endIdx = header.indexOf(";", index);
    if (endIdx === -1) endIdx = header.length;
    else if (endIdx < eqIdx) {
      index = header.lastIndexOf(";", eqIdx - 1) + 1;
      continue;
    }
    if (header.slice(index, eqIdx).trim() === name) {
      let value = header.slice(eqIdx + 1, endIdx).trim();
      if (value.codePointAt(0) === 34) value = value.slice(1, -1);
      return decode(value);
    }
    index = endIdx + 1;
  }
  return undefined;
}

function decode(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// Importing the HMAC key is the costly part of a check; one key per secret for the life of the process.
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = getCryptoKey(secret);
    keys.set(secret, key);
  }
  return key;
}

/**
 * The token inside a Better Auth signed cookie (`<token>.<base64 HMAC-SHA256(token, secret)>`), or null when the
 * value is malformed or the signature does not match. Same rules as better-call's getSignedCookie (a 44-character
 * padded signature after the last dot); better-call does not export its verifySignature, so this repeats it with
 * Better Auth's exported key derivation and WebCrypto's verify, which compares in constant time.
 */
export async function verifySignedCookie(value: string, secret: string): Promise<string | null> {
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = Uint8Array.from(atob(signature), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
  const valid = await crypto.subtle.verify(
    "HMAC",
    await hmacKey(secret),
    bytes,
    new TextEncoder().encode(token),
  );
  return valid ? token : null;
}
