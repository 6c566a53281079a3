import { describe, expect, it } from "vitest";
import { createPasswordHasher } from "./password-hashing.server";

describe("password hashing", () => {
  it("hashes with argon2id at the ASVS floor and verifies", async () => {
    const hasher = createPasswordHasher(2);
    const stored = await hasher.hash("clinica-demo-2026");
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify({ hash: stored, password: "clinica-demo-2026" })).toBe(true);
    expect(await hasher.verify({ hash: stored, password: "otra-clave-1" })).toBe(false);
    expect(await hasher.verify({ hash: "not-a-hash", password: "x" })).toBe(false);
  });

  it("never runs more hashes at once than allowed", async () => {
    const hasher = createPasswordHasher(2);
    let peak = 0;
    const probe = setInterval(() => (peak = Math.max(peak, hasher.running)), 1);
    await Promise.all(Array.from({ length: 6 }, (_, index) => hasher.hash(`clave-${index}`)));
    clearInterval(probe);
    expect(peak).toBeLessThanOrEqual(2);
    expect(peak).toBeGreaterThan(0);
    expect(hasher.running).toBe(0);
  });
});
