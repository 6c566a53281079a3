/**
 * Keeps the result of `load` for `ttlMs` (per process). For reference data shown on busy pages (treatments,
 * dentists); never for anything a decision depends on — services read the database.
 */
export function ttlCache<T>(ttlMs: number, load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  let expires = 0;
  return () => {
    const now = Date.now();
    if (!value || now >= expires) {
      expires = now + ttlMs;
      value = load();
      value.catch(() => {
        value = undefined;
      });
    }
    return value;
  };
}
