/**
 * Concurrency caps counted in memory (ADR 032): a long-lived thing (an event stream) takes one
 * slot under each of several keys at once — its guest, its room, its client address — or none when any key is
 * full. Its release gives every slot back, once, however many times it is called. Pure: no I/O, no clock.
 */
export interface SlotClaim {
  key: string;
  max: number;
}

export type SlotGrant = { ok: true; release: () => void } | { ok: false; full: SlotClaim };

export function createSlotCounter() {
  const open = new Map<string, number>();
  let held = 0;

  function take(claims: readonly SlotClaim[]): SlotGrant {
    const full = claims.find((claim) => (open.get(claim.key) ?? 0) >= claim.max);
    if (full) return { ok: false, full };
    for (const { key } of claims) open.set(key, (open.get(key) ?? 0) + 1);
    held += 1;
    let released = false;
    return {
      ok: true,
      release() {
        if (released) return;
        released = true;
        held -= 1;
        for (const { key } of claims) {
          const left = (open.get(key) ?? 1) - 1;
          // A key with nothing open is forgotten, so the map holds only what is open now.
          if (left > 0) open.set(key, left);
          else open.delete(key);
        }
      },
    };
  }

  return {
    take,
    /** Slots held under `key` now. */
    count: (key: string) => open.get(key) ?? 0,
    /** Keys with at least one slot held. */
    keys: () => open.size,
    /** Grants not released yet. */
    held: () => held,
  };
}
