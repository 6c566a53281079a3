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
