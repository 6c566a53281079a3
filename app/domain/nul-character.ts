/**
 * The NUL character (U+0000), which PostgreSQL refuses in text: a value holding one can never be stored, so it is
 * refused where requests are read (ADR 034) instead of failing deep in a query. Pure.
 */
const NUL = "\u0000";

/** Whether a string, or any key or string inside an array or object (parsed JSON), holds a NUL character. */
export function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes(NUL);
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === "object") {
    return Object.entries(value).some(([key, inner]) => key.includes(NUL) || containsNul(inner));
  }
  return false;
}

/** Whether a URL's path or query carries an encoded NUL (`%00`), which decoding would turn into one. */
export function urlCarriesNul(url: URL): boolean {
  return /%00/i.test(url.pathname + url.search);
}
