/** Content-Security-Policy for documents (DESIGN §6). The nonce is per response. */
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
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
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ];
  return directives.join("; ");
}
