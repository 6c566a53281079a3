import { randomBytes, randomUUID } from "node:crypto";

/**
 * A client address nobody else uses (IPv6 documentation prefix + random bits), so per-IP rate limits of one test
 * never meet another's, also when several files share one PostgreSQL database.
 */
export function randomIp(): string {
  const hex = randomBytes(6).toString("hex");
  return `2001:db8:${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 12)}::1`;
}

/** A fresh e-mail address (lower-case, as the forms store it). */
export function uniqueEmail(label = "seguridad"): string {
  return `${label}-${randomUUID()}@example.com`;
}

/** A form POST to the app as a given client (x-clinica-client-ip) with an optional Cookie header. */
export function clientForm(
  path: string,
  fields: Record<string, string>,
  options: { ip?: string; cookie?: string; headers?: Record<string, string> } = {},
): Request {
  const headers = new Headers(options.headers);
  headers.set("content-type", "application/x-www-form-urlencoded");
  headers.set("origin", "http://localhost:3000");
  headers.set("x-clinica-client-ip", options.ip ?? randomIp());
  if (options.cookie) headers.set("cookie", options.cookie);
  return new Request(new URL(path, "http://localhost:3000"), {
    method: "POST",
    headers,
    body: new URLSearchParams(fields),
  });
}

/** A GET to the app (absolute URLs are kept as they are) as a given client. */
export function clientGet(
  url: string,
  options: { ip?: string; cookie?: string; headers?: Record<string, string> } = {},
): Request {
  const headers = new Headers(options.headers);
  headers.set("x-clinica-client-ip", options.ip ?? randomIp());
  if (options.cookie) headers.set("cookie", options.cookie);
  return new Request(new URL(url, "http://localhost:3000"), { headers });
}
