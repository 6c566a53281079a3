import { describe, expect, it } from "vitest";
import { createSlotCounter } from "./concurrency-slots";

const claims = (guest: string) => [
  { key: `guest:${guest}`, max: 2 },
  { key: "address:a", max: 3 },
];

describe("concurrency slots", () => {
  it("takes a slot under every key, refuses when any key is full and names it", () => {
    const slots = createSlotCounter();
    expect(slots.take(claims("g1")).ok).toBe(true);
    expect(slots.take(claims("g1")).ok).toBe(true);
    expect(slots.take(claims("g1"))).toEqual({ ok: false, full: { key: "guest:g1", max: 2 } });
    expect(slots.take(claims("g2")).ok).toBe(true);
    expect(slots.take(claims("g3"))).toEqual({ ok: false, full: { key: "address:a", max: 3 } });
    // A refusal takes nothing: g3 holds no slot.
    expect(slots.count("guest:g3")).toBe(0);
    expect(slots.count("address:a")).toBe(3);
  });

  it("gives every slot back on release, once, and forgets keys with nothing open", () => {
    const slots = createSlotCounter();
    const both = [
      { key: "guest:g", max: 1 },
      { key: "room:r", max: 5 },
    ];
    const first = slots.take(both);
    const second = slots.take([{ key: "room:r", max: 5 }]);
    if (!first.ok || !second.ok) throw new Error("expected slots");
    expect(slots.take(both).ok).toBe(false);
    first.release();
    first.release();
    expect(slots.count("room:r")).toBe(1);
    expect(slots.count("guest:g")).toBe(0);
    expect(slots.held()).toBe(1);
    second.release();
    expect(slots.keys()).toBe(0);
    expect(slots.held()).toBe(0);
    expect(slots.take(both).ok).toBe(true);
  });
});
