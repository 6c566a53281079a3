import { createHmac, timingSafeEqual } from "node:crypto";

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

/**
 * The token inside a Better Auth signed cookie (`<token>.<base64 HMAC-SHA256(token, secret)>`), or null when the
 * value is malformed or the signature does not match. Same rules as better-call's getSignedCookie (a 44-character
 * padded signature after the last dot; the key is the secret's UTF-8 bytes, as better-auth/crypto's getCryptoKey
 * imports it); better-call does not export its verifySignature, so this repeats it. node:crypto's synchronous HMAC
 * rather than WebCrypto: a portal request checks one cookie, and the async job cost more than the hash itself.
 */
export function verifySignedCookie(value: string, secret: string): string | null {
  const known = verifiedValues.get(secret)?.get(value);
  if (known !== undefined) return known;
  const token = checkSignature(value, secret);
  if (token !== null) remember(secret, value, token);
  return token;
}

/*
 * Values whose signature was checked and held, per secret: a signed-in person's every request carries the same
 * cookie, and an HMAC per request was a measurable share of one (issue 25). Only good values are kept (a forged one
 * costs its HMAC each time, as before), at most VERIFIED_KEPT per secret. What the token is worth is still the
 * database's to say on every request: a revoked session's cookie verifies but finds no session.
 */
const verifiedValues = new Map<string, Map<string, string>>();
const VERIFIED_KEPT = 2000;

function remember(secret: string, value: string, token: string): void {
  let values = verifiedValues.get(secret);
  if (!values) {
    values = new Map();
    verifiedValues.set(secret, values);
  }
  if (values.size >= VERIFIED_KEPT) values.clear();
  values.set(value, token);
}

function checkSignature(value: string, secret: string): string | null {
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const given = Buffer.from(signature, "base64");
  // Buffer.from skips characters outside the alphabet; re-encoding proves the signature was canonical base64.
  if (given.length !== 32 || given.toString("base64") !== signature) return null;
  const expected = createHmac("sha256", secret).update(token).digest();
  return timingSafeEqual(given, expected) ? token : null;
}
