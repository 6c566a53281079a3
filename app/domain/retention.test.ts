import { describe, expect, it } from "vitest";
import {
  isPastRetention,
  periodStart,
  periodText,
  retentionActionText,
  retentionCutoff,
  retentionCutoffs,
  retentionRule,
  retentionRules,
  sweptRules,
  type RetentionPeriod,
} from "./retention";

const at = (iso: string) => new Date(iso);

describe("periodStart", () => {
  it.each<[RetentionPeriod, string, string]>([
    [{ amount: 1, unit: "days" }, "2027-03-10T12:00:00.000Z", "2027-03-09T12:00:00.000Z"],
    [{ amount: 30, unit: "days" }, "2027-03-10T12:00:00.000Z", "2027-02-08T12:00:00.000Z"],
    [{ amount: 7, unit: "days" }, "2027-01-03T03:00:00.000Z", "2026-12-27T03:00:00.000Z"],
    [{ amount: 6, unit: "months" }, "2027-03-10T12:00:00.000Z", "2026-09-10T12:00:00.000Z"],
    [{ amount: 12, unit: "months" }, "2027-03-10T12:00:00.000Z", "2026-03-10T12:00:00.000Z"],
    // The day is clamped to the shorter month's last day, not rolled into the next month.
    [{ amount: 1, unit: "months" }, "2027-03-31T10:00:00.000Z", "2027-02-28T10:00:00.000Z"],
    [{ amount: 1, unit: "months" }, "2028-03-31T10:00:00.000Z", "2028-02-29T10:00:00.000Z"],
    [{ amount: 6, unit: "months" }, "2027-08-31T23:30:00.000Z", "2027-02-28T23:30:00.000Z"],
    [{ amount: 5, unit: "years" }, "2032-02-29T15:00:00.000Z", "2027-02-28T15:00:00.000Z"],
    [{ amount: 15, unit: "years" }, "2041-12-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z"],
    [{ amount: 6, unit: "years" }, "2033-01-15T08:00:00.000Z", "2027-01-15T08:00:00.000Z"],
    [{ amount: 2, unit: "hours" }, "2027-01-01T01:00:00.000Z", "2026-12-31T23:00:00.000Z"],
  ])("%o before %s is %s", (period, now, expected) => {
    expect(periodStart(period, at(now)).toISOString()).toBe(expected);
  });
});

describe("isPastRetention: just past goes, just inside stays", () => {
  const now = at("2027-06-15T15:00:00.000Z");
  it.each(retentionRules.map((rule) => [rule.key, rule] as const))("%s", (_key, rule) => {
    const cutoff = retentionCutoff(rule, now);
    expect(isPastRetention(rule, new Date(cutoff.getTime() - 1), now)).toBe(true);
    expect(isPastRetention(rule, cutoff, now)).toBe(false);
    expect(isPastRetention(rule, new Date(cutoff.getTime() + 60_000), now)).toBe(false);
    expect(isPastRetention(rule, now, now)).toBe(false);
  });
});

describe("the table", () => {
  it("has unique keys, and every swept rule deletes or anonymises", () => {
    const keys = retentionRules.map((rule) => rule.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const rule of sweptRules) expect(["delete", "anonymise"]).toContain(rule.action);
  });

  it.each<[string, string, string]>([
    ["leads", "12 meses", "anonymise"],
    ["chat_rooms", "6 meses", "delete"],
    ["advisor_messages", "12 meses", "delete"],
    ["whatsapp_bodies", "6 meses", "anonymise"],
    ["whatsapp_inbound_bodies", "6 meses", "anonymise"],
    ["outbox_payloads", "30 días", "anonymise"],
    ["rate_limits", "1 día", "delete"],
    ["sessions", "30 días", "delete"],
    ["verifications", "1 día", "delete"],
    ["audit_log", "5 años", "delete"],
    ["data_exports", "7 días", "delete"],
    ["privacy_requests_unverified", "30 días", "delete"],
    ["privacy_requests_closed", "5 años", "delete"],
  ])("%s: %s, %s", (key, period, action) => {
    const rule = retentionRule(key as never);
    expect(periodText(rule.period)).toBe(period);
    expect(rule.action).toBe(action);
  });

  it("keeps the clinical register and appointments at least 15 years and payments 6, never swept", () => {
    for (const [key, period] of [
      ["clinical_record_access", "15 años"],
      ["appointments", "15 años"],
      ["charges", "6 años"],
      ["payments", "6 años"],
      ["payment_refunds", "6 años"],
    ] as const) {
      const rule = retentionRule(key);
      expect(rule.action).toBe("keep");
      expect(periodText(rule.period)).toBe(period);
      expect(sweptRules.some((swept) => swept.table === rule.table)).toBe(false);
    }
  });

  it("gives every rule a Spanish label, start and reason", () => {
    for (const rule of retentionRules) {
      expect(rule.label.length).toBeGreaterThan(5);
      expect(rule.from).toMatch(/^desde /);
      expect(rule.reason.length).toBeGreaterThan(15);
    }
  });

  it("states the action in Spanish", () => {
    expect(retentionActionText("delete")).toBe("Se elimina");
    expect(retentionActionText("anonymise")).toBe("Se anonimiza");
    expect(retentionActionText("keep")).toBe("Se conserva al menos este plazo");
  });

  it("answers every rule's cut-off at once", () => {
    const now = at("2027-06-15T15:00:00.000Z");
    const cutoffs = retentionCutoffs(now);
    expect(cutoffs.sessions.toISOString()).toBe("2027-05-16T15:00:00.000Z");
    expect(cutoffs.leads.toISOString()).toBe("2026-06-15T15:00:00.000Z");
    expect(cutoffs.clinical_record_access.toISOString()).toBe("2012-06-15T15:00:00.000Z");
    expect(Object.keys(cutoffs)).toHaveLength(retentionRules.length);
  });

  it("refuses an unknown key", () => {
    expect(() => retentionRule("nope" as never)).toThrow(RangeError);
  });
});
