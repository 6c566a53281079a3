// Anonymous public pages are the same for everyone: keep their HTML for a short while so a burst of visitors
// costs one render (ADR 002). Only GET documents of anonymous visitors (no cookie but
// the language one) are cached, never a response that sets a cookie. The CSP nonce is swapped on every send.

const NONCE_PATTERN = /'nonce-([A-Za-z0-9_-]+)'/;

function cacheable(response) {
  return (
    response.status === 200 &&
    !response.headers.has("set-cookie") &&
    // A page that says so is never kept (e.g. a reminder's single-use link, which changes once it is used).
    !/\bno-store\b/i.test(response.headers.get("cache-control") || "") &&
    (response.headers.get("content-type") || "").startsWith("text/html") &&
    NONCE_PATTERN.test(response.headers.get("content-security-policy") || "")
  );
}

function send(res, entry, freshNonce) {
  for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
  res.setHeader("Content-Security-Policy", entry.csp.replace(entry.nonce, freshNonce));
  res.status(200).send(entry.html.replaceAll(`nonce="${entry.nonce}"`, `nonce="${freshNonce}"`));
}

export function createHtmlCache({ ttlSeconds, maxEntries }) {
  const entries = new Map();

  function keyFor(req) {
    if (ttlSeconds <= 0 || req.method !== "GET") return null;
    const cookies = (req.get("cookie") || "")
      .split(";")
      .map((part) => part.trim())
      .filter(Boolean);
    if (cookies.some((cookie) => !cookie.startsWith("lang="))) return null;
    if (req.path.endsWith(".data") || req.path.startsWith("/api/")) return null;
    const accept = req.get("accept") || "";
    if (!accept.includes("text/html")) return null;
    return `${req.originalUrl}|${cookies.join(";")}`;
  }

  function get(key) {
    const entry = entries.get(key);
    if (!entry) return null;
    if (entry.expires < Date.now()) {
      entries.delete(key);
      return null;
    }
    return entry;
  }

  async function store(key, response) {
    const html = await response.text();
    const csp = response.headers.get("content-security-policy");
    const nonce = NONCE_PATTERN.exec(csp)[1];
    const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "content-length"));
    const entry = { html, csp, nonce, headers, expires: Date.now() + ttlSeconds * 1000 };
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value);
    entries.set(key, entry);
    return entry;
  }

  return { keyFor, get, cacheable, store, send };
}
