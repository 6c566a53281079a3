import { describe, expect, it } from "vitest";
import {
  normaliseOneTimeCode,
  oneTimeCodeVerdict,
  SIGN_IN_CODE_MAX_ATTEMPTS,
  SIGN_IN_CODE_TTL_MS,
} from "./one-time-code";

const now = new Date("2026-11-25T12:00:00Z");
const code = (overrides: Partial<Parameters<typeof oneTimeCodeVerdict>[0]> = {}) => ({
  expiresAt: new Date(now.getTime() + SIGN_IN_CODE_TTL_MS),
  attempts: 0,
  consumedAt: null,
  ...overrides,
});

describe("oneTimeCodeVerdict (the sign-in step-up code: 10 minutes, 5 attempts, single use)", () => {
  it("is usable within its lifetime and attempts", () => {
    expect(SIGN_IN_CODE_TTL_MS).toBe(10 * 60_000);
    expect(oneTimeCodeVerdict(code(), now, SIGN_IN_CODE_MAX_ATTEMPTS)).toBe("usable");
    expect(oneTimeCodeVerdict(code({ attempts: 4 }), now, SIGN_IN_CODE_MAX_ATTEMPTS)).toBe("usable");
  });

  it("is exhausted at the limit, expired at its expiry instant, consumed once used", () => {
    expect(oneTimeCodeVerdict(code({ attempts: 5 }), now, SIGN_IN_CODE_MAX_ATTEMPTS)).toBe("exhausted");
    expect(oneTimeCodeVerdict(code({ expiresAt: now }), now, SIGN_IN_CODE_MAX_ATTEMPTS)).toBe("expired");
    expect(oneTimeCodeVerdict(code({ consumedAt: now }), now, SIGN_IN_CODE_MAX_ATTEMPTS)).toBe("consumed");
  });
});

describe("normaliseOneTimeCode", () => {
  it.each([
    ["123456", "123456"],
    [" 123 456 ", "123456"],
    ["123-456", "123456"],
    ["12345", null],
    ["12345a", null],
  ])("%j → %j", (input, expected) => {
    expect(normaliseOneTimeCode(input)).toBe(expected);
  });
});
