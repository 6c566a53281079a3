import { randomBytes, randomUUID } from "node:crypto";

/**
 * Everything a test needs to act as a client of the app when it calls loaders and actions directly: unique
 * identities (e-mail, phone, address) and the Requests themselves. The only request builders of the integration
 * tests; accounts and their session cookies are in `users.ts`, the production server's HTTP in `prod-server.ts`.
 */

/** The app's origin in directly built Requests (the Origin header of form posts). */
export const APP_ORIGIN = "http://localhost:3000";

/**
 * The fixed client address of `requestAs`/`postAs`: a signed-in user at one desk. Tests of per-IP limits use
 * `clientForm`/`clientGet`, whose default is a fresh address per request.
 */
export const DESK_IP = "203.0.113.7";

/**
 * A client address nobody else uses (IPv6 documentation prefix + random bits), so per-IP rate limits of one test
 * never meet another's.
 */
export function randomIp(): string {
  const hex = randomBytes(6).toString("hex");
  return `2001:db8:${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 12)}::1`;
}

/** A fresh e-mail address (lower-case, as the forms store it); `label` says which test made it. */
export function uniqueEmail(label = "test"): string {
  return `${label}-${randomUUID()}@example.com`;
}

/** A random Chilean mobile number in E.164 (+569 and 8 digits), as the forms store it. */
export function uniquePhone(): string {
  return `+569${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
}

export interface ClientOptions {
  /** The client's address (x-clinica-client-ip, which server.mjs sets in production); default: a fresh one. */
  ip?: string;
  /** A `Cookie` header value. */
  cookie?: string;
  headers?: HeadersInit;
}

function clientHeaders(options: ClientOptions): Headers {
  const headers = new Headers(options.headers);
  headers.set("x-clinica-client-ip", options.ip ?? randomIp());
  if (options.cookie) headers.set("cookie", options.cookie);
  return headers;
}

/** A form POST to the app as a given client (x-clinica-client-ip) with an optional Cookie header. */
export function clientForm(
  path: string,
  fields: Record<string, string>,
  options: ClientOptions = {},
): Request {
  const headers = clientHeaders(options);
  headers.set("content-type", "application/x-www-form-urlencoded");
  headers.set("origin", APP_ORIGIN);
  return new Request(new URL(path, APP_ORIGIN), {
    method: "POST",
    headers,
    body: new URLSearchParams(fields),
  });
}

/** A JSON POST to the app (Better Auth's API style) as a given client. */
export function clientJson(
  path: string,
  body: Record<string, unknown>,
  options: ClientOptions = {},
): Request {
  const headers = clientHeaders(options);
  headers.set("content-type", "application/json");
  headers.set("origin", APP_ORIGIN);
  return new Request(new URL(path, APP_ORIGIN), { method: "POST", headers, body: JSON.stringify(body) });
}

/** A GET to the app (absolute URLs are kept as they are) as a given client. */
export function clientGet(url: string, options: ClientOptions = {}): Request {
  return new Request(new URL(url, APP_ORIGIN), { headers: clientHeaders(options) });
}

/**
 * A Request for a route as a given user (or anonymous with `cookie` undefined) from `DESK_IP` unless `init` sets
 * x-clinica-client-ip. No Origin header: what a same-origin navigation or a non-browser client sends.
 */
export function requestAs(cookie: string | undefined, path: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  const ip = headers.get("x-clinica-client-ip") ?? DESK_IP;
  return new Request(new URL(path, APP_ORIGIN), { ...init, headers: clientHeaders({ headers, ip, cookie }) });
}

/** A form POST for a route as a given user (or anonymous), like `requestAs`. */
export function postAs(cookie: string | undefined, path: string, fields: Record<string, string>): Request {
  return requestAs(cookie, path, { method: "POST", body: new URLSearchParams(fields) });
}
