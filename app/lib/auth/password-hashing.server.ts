import { hash, verify } from "@node-rs/argon2";

/**
 * argon2id at the OWASP ASVS 5.0 floor (m = 19 MiB, t = 2, p = 1). Hashes run on libuv's thread pool; at most
 * `maxConcurrent` run at once and the rest wait in line, so a burst of sign-ins cannot starve the server.
 */
// `algorithm: 2` is Algorithm.Argon2id (an ambient const enum, not importable under verbatimModuleSyntax).
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function createPasswordHasher(maxConcurrent: number) {
  let running = 0;
  const waiting: Array<() => void> = [];

  async function withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (running >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  }

  return {
    hash: (password: string) => withSlot(() => hash(password, ARGON2_OPTIONS)),
    verify: ({ hash: stored, password }: { hash: string; password: string }) =>
      withSlot(async () => {
        try {
          return await verify(stored, password);
        } catch {
          // A malformed stored hash is a failed verification, not a server error.
          return false;
        }
      }),
    /** For tests and metrics. */
    get running() {
      return running;
    },
  };
}
