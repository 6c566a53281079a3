import { randomBytes } from "node:crypto";

/*
 * A fresh CSP nonce per document: 16 random bytes, base64url. They are cut from a pool that one call to the CSPRNG
 * fills for 256 documents (as node:crypto's randomUUID pools its own), rather than one synchronous call each; no two
 * documents ever get the same bytes.
 */
const NONCE_BYTES = 16;
const NONCES_PER_FILL = 256;
let noncePool = Buffer.alloc(0);
let nonceOffset = 0;

export function cspNonce(): string {
  if (nonceOffset + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(NONCE_BYTES * NONCES_PER_FILL);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString("base64url", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

/** Content-Security-Policy for documents (a script without the nonce does not run). The nonce is per response. */
export function contentSecurityPolicy(
  nonce: string,
  dev: boolean,
  frameAncestors = "'none'",
  formAction = "'self'",
): string {
  const directives = [
    "default-src 'self'",
    // Vite's dev server injects inline scripts; a nonce would make 'unsafe-inline' ignored, so dev drops it.
    dev ? "script-src 'self' 'unsafe-inline'" : `script-src 'self' 'nonce-${nonce}'`,
    // React and Radix set style attributes; stylesheets come from our own origin.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "media-src 'self' https:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    `form-action ${formAction}`,
    "base-uri 'self'",
    "object-src 'none'",
    `frame-ancestors ${frameAncestors}`,
  ];
  return directives.join("; ");
}

/** The chat room page (the widget's iframe) is the one page that may be framed: by us and CHAT_ALLOWED_ORIGINS. */
export const FRAMEABLE_PATH = /^\/chat\/sala\/[^/]+\/?$/;

export function frameAncestorsFor(pathname: string, allowedOrigins: readonly string[]): string {
  return FRAMEABLE_PATH.test(pathname) ? ["'self'", ...allowedOrigins].join(" ") : "'none'";
}

/**
 * The checkout page posts token_ws to Webpay's form (ADR 036): only that page may submit a form to Transbank's hosts
 * (production and integration). The demo's fake is served by the app itself ('self'); a fake on another origin is
 * passed in `extraOrigins`.
 */
export const CHECKOUT_PATH = /^\/pagos\/webpay\/ir\/[^/]+\/?$/;
export const WEBPAY_FORM_ORIGINS = [
  "https://webpay3g.transbank.cl",
  "https://webpay3gint.transbank.cl",
] as const;

export function formActionFor(pathname: string, extraOrigins: readonly string[] = []): string {
  return CHECKOUT_PATH.test(pathname)
    ? ["'self'", ...WEBPAY_FORM_ORIGINS, ...extraOrigins].join(" ")
    : "'self'";
}
