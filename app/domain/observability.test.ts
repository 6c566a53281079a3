import { describe, expect, it } from "vitest";
import { chooseRequestId, isSafeRequestId, jobLagSeconds, rateRuleLabel, statusClass } from "./observability";

const gen = () => "generated";

describe("statusClass", () => {
  it("groups statuses by hundreds", () => {
    expect(statusClass(200)).toBe("2xx");
    expect(statusClass(204)).toBe("2xx");
    expect(statusClass(302)).toBe("3xx");
    expect(statusClass(404)).toBe("4xx");
    expect(statusClass(429)).toBe("4xx");
    expect(statusClass(503)).toBe("5xx");
    expect(statusClass(101)).toBe("1xx");
  });
  it("counts a nonsense status as a server error", () => {
    expect(statusClass(0)).toBe("5xx");
    expect(statusClass(700)).toBe("5xx");
    expect(statusClass(200.5)).toBe("5xx");
  });
});

describe("request ids", () => {
  it("accepts a safe incoming id", () => {
    expect(isSafeRequestId("abc-123_DEF.456")).toBe(true);
    expect(chooseRequestId("0123456789abcdef", gen)).toBe("0123456789abcdef");
    expect(chooseRequestId(["first-id-12345", "second"], gen)).toBe("first-id-12345");
  });
  it("replaces an unsafe, short, long or missing one", () => {
    expect(chooseRequestId("short", gen)).toBe("generated");
    expect(chooseRequestId("a".repeat(65), gen)).toBe("generated");
    expect(chooseRequestId("has space 12345", gen)).toBe("generated");
    expect(chooseRequestId("ana@example.com", gen)).toBe("generated");
    expect(chooseRequestId('x"}\n{"level":60', gen)).toBe("generated");
    expect(chooseRequestId(undefined, gen)).toBe("generated");
    expect(chooseRequestId(null, gen)).toBe("generated");
  });
});

describe("rateRuleLabel", () => {
  it("keeps the rule and drops the subject", () => {
    expect(rateRuleLabel("public-write:lead:ip:203.0.113.9")).toBe("public-write:lead:ip");
    expect(rateRuleLabel("reset:account:ana@example.com")).toBe("reset:account");
    expect(rateRuleLabel("signin-fail:account-ip:ana@example.com|10.0.0.1")).toBe("signin-fail:account-ip");
    expect(rateRuleLabel("llm:model:hour:gpt-4o-mini")).toBe("llm:model:hour");
    expect(rateRuleLabel("room:6f1c2b7e-0000-4000-8000-000000000000")).toBe("room");
    expect(rateRuleLabel("ip:10.0.0.1")).toBe("ip");
  });
  it("never lets an id, RUT or address into the label", () => {
    expect(rateRuleLabel("record-code:account-rut:Xy12abc:12.345.678-5")).toBe("record-code:account-rut");
    expect(rateRuleLabel("12.345.678-5")).toBe("other");
    expect(rateRuleLabel("ana@example.com:ip:1")).toBe("other");
  });
});

describe("jobLagSeconds", () => {
  it("is zero while on schedule and grows once a run is overdue", () => {
    expect(jobLagSeconds(null, 60_000, 1_000_000)).toBeNull();
    expect(jobLagSeconds(1_000_000, 60_000, 1_030_000)).toBe(0);
    expect(jobLagSeconds(1_000_000, 60_000, 1_090_000)).toBe(30);
  });
});
