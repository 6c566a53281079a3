import { expect, it, vi } from "vitest";
import { ttlCache } from "./ttl-cache.server";

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
