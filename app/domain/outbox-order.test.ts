import { describe, expect, it } from "vitest";
import { outboxOrderingKey, runBounded } from "./outbox-order";

describe("outboxOrderingKey", () => {
  it("gives one recipient one key, whatever the spelling of an e-mail, and keeps scopes apart", () => {
    const key = outboxOrderingKey("email", "Ana.Perez@Ejemplo.cl ");
    expect(key).toBe(outboxOrderingKey("email", "ana.perez@ejemplo.cl"));
    expect(key).toMatch(/^email:[0-9a-f]{16}$/);
    expect(outboxOrderingKey("whatsapp", "56911112222")).not.toBe(
      outboxOrderingKey("whatsapp", "56911112223"),
    );
    expect(outboxOrderingKey("whatsapp", "x")).not.toBe(outboxOrderingKey("dentalink-appointment", "x"));
  });

  it("never stores the address itself, and has no key for nothing", () => {
    expect(outboxOrderingKey("email", "ana@ejemplo.cl")).not.toContain("ana");
    expect(outboxOrderingKey("whatsapp", "56911112222")).not.toContain("5691111");
    expect(outboxOrderingKey("email", "  ")).toBeNull();
    expect(outboxOrderingKey("whatsapp", null)).toBeNull();
  });
});

describe("runBounded", () => {
  it("never runs more than the limit at once, starts in order and runs every item once", async () => {
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 10 }, () => Promise.withResolvers<void>());
    const run = runBounded([...gates.keys()], 3, async (index) => {
      started.push(index);
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await gates[index]!.promise;
      inFlight -= 1;
    });
    // Release in reverse order as they start: the limit holds whatever finishes first.
    for (let round = 0; round < 20 && started.length < 10; round += 1) {
      await Promise.resolve();
      for (const index of started.toReversed()) gates[index]!.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const gate of gates) gate.resolve();
    await run;
    expect(peak).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("runs the rest when one fails, then rethrows the first failure", async () => {
    const done: number[] = [];
    await expect(
      runBounded([1, 2, 3], 2, async (item) => {
        if (item === 1) throw new Error("uno");
        done.push(item);
      }),
    ).rejects.toThrow("uno");
    expect(done.toSorted()).toEqual([2, 3]);
  });
});
