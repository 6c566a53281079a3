import { describe, expect, it } from "vitest";
import {
  normaliseRecordCode,
  RECORD_CODE_MAX_ATTEMPTS,
  RECORD_CODE_TTL_MS,
  recordCodeChannel,
  recordCodeVerdict,
} from "./record-code";

const now = new Date("2026-11-25T12:00:00Z");
const code = (overrides: Partial<Parameters<typeof recordCodeVerdict>[0]> = {}) => ({
  expiresAt: new Date(now.getTime() + RECORD_CODE_TTL_MS),
  attempts: 0,
  consumedAt: null,
  ...overrides,
});

describe("recordCodeVerdict", () => {
  it("is usable within 10 minutes and 5 attempts", () => {
    expect(recordCodeVerdict(code(), now)).toBe("usable");
    expect(recordCodeVerdict(code({ attempts: RECORD_CODE_MAX_ATTEMPTS - 1 }), now)).toBe("usable");
  });

  it("expires at its expiry instant", () => {
    expect(recordCodeVerdict(code({ expiresAt: now }), now)).toBe("expired");
  });

  it("is exhausted after 5 attempts and consumed once used", () => {
    expect(recordCodeVerdict(code({ attempts: 5 }), now)).toBe("exhausted");
    expect(recordCodeVerdict(code({ consumedAt: now }), now)).toBe("consumed");
  });
});

describe("normaliseRecordCode", () => {
  it.each([
    ["123456", "123456"],
    [" 123 456 ", "123456"],
    ["123-456", "123456"],
    ["12345", null],
    ["1234567", null],
    ["12345a", null],
  ])("%j → %j", (input, expected) => {
    expect(normaliseRecordCode(input)).toBe(expected);
  });
});

describe("recordCodeChannel", () => {
  it("prefers WhatsApp to a mobile, then e-mail, else nothing", () => {
    expect(recordCodeChannel({ mobile: "+56961234567", email: "a@b.cl" })).toBe("whatsapp");
    expect(recordCodeChannel({ mobile: null, email: "a@b.cl" })).toBe("email");
    expect(recordCodeChannel({ mobile: null, email: null })).toBeNull();
  });
});
