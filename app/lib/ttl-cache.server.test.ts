import { expect, it, vi } from "vitest";
import { keyedCache, ttlCache } from "./ttl-cache.server";

it("reuses the value within the TTL and reloads after it, or after a failure", async () => {
  vi.useFakeTimers();
  let calls = 0;
  const cached = ttlCache(1000, async () => {
    calls += 1;
    if (calls === 3) throw new Error("down");
    return calls;
  });
  expect(await cached()).toBe(1);
  expect(await cached()).toBe(1);
  vi.advanceTimersByTime(1001);
  expect(await cached()).toBe(2);
  vi.advanceTimersByTime(1001);
  await expect(cached()).rejects.toThrow("down");
  expect(await cached()).toBe(4);
  vi.useRealTimers();
});

it("keeps one value per key for the life of the process, and forgets a failed one", async () => {
  const loads: string[] = [];
  const render = keyedCache(
    (key: string) => key,
    (key: string) => {
      loads.push(key);
      return key.toUpperCase();
    },
  );
  expect([render("a"), render("b"), render("a")]).toEqual(["A", "B", "A"]);
  expect(loads).toEqual(["a", "b"]);

  let attempts = 0;
  const pdf = keyedCache(
    (key: string) => key,
    async (key: string) => {
      attempts += 1;
      if (attempts === 1) throw new Error("render failed");
      return `${key}.pdf`;
    },
  );
  await expect(pdf("guia")).rejects.toThrow("render failed");
  await expect(pdf("guia")).resolves.toBe("guia.pdf");
  await expect(pdf("guia")).resolves.toBe("guia.pdf");
  expect(attempts).toBe(2);
});
