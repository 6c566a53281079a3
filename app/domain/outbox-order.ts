/**
 * The outbox delivers in parallel across recipients and in order within one (issue 25): the key that says which rows
 * must wait for which, and a bounded-concurrency runner for the delivery lanes. Pure.
 */

/**
 * Where an ordering key comes from: one recipient (a phone, an e-mail address), one appointment's Dentalink writes,
 * or one lead's two notices (the advisor's before the patient's, ADR 020).
 */
export type OrderingScope = "whatsapp" | "email" | "dentalink-appointment" | "lead";

/** 64-bit FNV-1a, as 16 hex digits: a stable, short key that does not store the address itself. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * prime) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

/**
 * The key that orders a recipient's (or an appointment's) rows. Addresses are normalised first (an e-mail's case and
 * spaces) so that two spellings of one mailbox share a lane. Null for an empty value: such a row orders with none.
 */
export function outboxOrderingKey(scope: OrderingScope, value: string | null | undefined): string | null {
  const normalised = (value ?? "").trim();
  if (normalised === "") return null;
  const subject = scope === "email" ? normalised.toLowerCase() : normalised;
  return `${scope}:${fnv1a64(subject)}`;
}

/**
 * Runs `work` over the items with at most `limit` at once, starting them in the order given. Resolves when all have
 * settled; `work` is expected to handle its own failures (a rejection is rethrown once all are done).
 */
export async function runBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure !== undefined) throw failure;
}
