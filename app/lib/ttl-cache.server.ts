/**
 * The one in-process cache helper: one value per key (`keyOf` the arguments), kept for `ttlMs` or for the life of
 * the process; a rejected promise is forgotten at once so the next call retries. For content rendered from our own
 * files and for reference data shown on busy pages (treatments, dentists); never for anything a decision depends
 * on — services read the database.
 */
export function keyedCache<A extends unknown[], T>(
  keyOf: (...args: A) => string,
  load: (...args: A) => T,
  ttlMs = Number.POSITIVE_INFINITY,
): (...args: A) => T {
  const entries = new Map<string, { value: T; expires: number }>();
  return (...args) => {
    const key = keyOf(...args);
    const now = Date.now();
    const entry = entries.get(key);
    if (entry && now < entry.expires) return entry.value;
    const value = load(...args);
    entries.set(key, { value, expires: now + ttlMs });
    if (value instanceof Promise) {
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
    }
    return value;
  };
}

/** A single cached value (see keyedCache). */
export function ttlCache<T>(ttlMs: number, load: () => Promise<T>): () => Promise<T> {
  return keyedCache(() => "", load, ttlMs);
}
