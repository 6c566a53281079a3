import { describe, expect, it } from "vitest";
import {
  consentState,
  contactDecision,
  mayProfile,
  notSentReason,
  type ContactPurpose,
  type LedgerEntry,
} from "./consent-rules";
import type { PrivacyRestrictionKind } from "./privacy";

const at = (iso: string) => new Date(`2026-12-${iso}Z`);
const now = at("10T12:00:00");

const given = (purpose: LedgerEntry["purpose"], when: string, withdrawn?: string): LedgerEntry => ({
  purpose,
  givenAt: at(when),
  withdrawnAt: withdrawn ? at(withdrawn) : null,
});

describe("consentState", () => {
  it.each<[string, LedgerEntry[], ReturnType<typeof consentState>]>([
    ["no rows", [], "sin_consentimiento"],
    ["rows of another purpose only", [given("marketing", "01T10:00:00")], "sin_consentimiento"],
    ["given", [given("recordatorios_whatsapp", "01T10:00:00")], "vigente"],
    ["given then withdrawn", [given("recordatorios_whatsapp", "01T10:00:00", "02T10:00:00")], "retirado"],
    [
      "withdrawn, then given again (a new row)",
      [
        given("recordatorios_whatsapp", "01T10:00:00", "02T10:00:00"),
        given("recordatorios_whatsapp", "03T10:00:00"),
      ],
      "vigente",
    ],
    [
      "given by two contacts, withdrawn through one of them later",
      [
        given("recordatorios_whatsapp", "01T10:00:00"),
        given("recordatorios_whatsapp", "02T10:00:00", "04T10:00:00"),
      ],
      "retirado",
    ],
    [
      "a withdrawal at the very instant of a giving wins",
      [
        given("recordatorios_whatsapp", "01T10:00:00", "05T10:00:00"),
        given("recordatorios_whatsapp", "05T10:00:00"),
      ],
      "retirado",
    ],
    [
      "a giving dated in the future does not count yet",
      [given("chat_ia", "11T10:00:00")],
      "sin_consentimiento",
    ],
  ])("%s", (_name, entries, expected) => {
    const purpose = entries[0]?.purpose === "chat_ia" ? "chat_ia" : "recordatorios_whatsapp";
    expect(consentState(entries, purpose, now)).toBe(expected);
  });
});

describe("contactDecision", () => {
  const whatsapp = [given("recordatorios_whatsapp", "01T10:00:00")];
  const withdrawn = [given("recordatorios_whatsapp", "01T10:00:00", "09T10:00:00")];
  const marketing = [given("marketing", "01T10:00:00")];
  const contact = [given("datos_contacto", "01T10:00:00")];

  it.each<[ContactPurpose, LedgerEntry[], PrivacyRestrictionKind[], boolean, string]>([
    ["recordatorios_whatsapp", whatsapp, [], true, "consentimiento_vigente"],
    ["recordatorios_whatsapp", withdrawn, [], false, "consentimiento_retirado"],
    ["recordatorios_whatsapp", [], [], false, "sin_consentimiento"],
    ["recordatorios_whatsapp", whatsapp, ["bloqueo"], false, "bloqueo"],
    ["recordatorios_whatsapp", whatsapp, ["marketing"], true, "consentimiento_vigente"],
    ["recordatorios_whatsapp", whatsapp, ["perfilamiento"], true, "consentimiento_vigente"],
    ["datos_contacto", contact, [], true, "consentimiento_vigente"],
    ["datos_contacto", whatsapp, [], false, "sin_consentimiento"],
    ["datos_contacto", contact, ["bloqueo"], false, "bloqueo"],
    ["marketing", marketing, [], true, "consentimiento_vigente"],
    ["marketing", marketing, ["marketing"], false, "oposicion_marketing"],
    ["marketing", marketing, ["perfilamiento"], false, "oposicion_perfilamiento"],
    ["marketing", [], [], false, "sin_consentimiento"],
    ["chat_ia", [given("chat_ia", "01T10:00:00")], [], true, "consentimiento_vigente"],
    ["obligacion_legal", [], ["bloqueo", "marketing", "perfilamiento"], true, "obligacion_legal"],
  ])("%s with %j and restrictions %j → %s", (purpose, entries, restrictions, allowed, reason) => {
    expect(contactDecision(purpose, entries, restrictions, now)).toEqual({ allowed, reason });
  });

  it("gives every refusal a recorded reason, and none to an allowed contact", () => {
    expect(notSentReason("consentimiento_retirado")).toMatch(/^CONSENT_WITHDRAWN: /);
    expect(notSentReason("bloqueo")).toMatch(/^BLOCKED: /);
    expect(notSentReason("sin_consentimiento")).toMatch(/^NO_CONSENT: /);
    expect(notSentReason("consentimiento_vigente")).toBe("");
  });
});

describe("mayProfile", () => {
  it.each<[PrivacyRestrictionKind[], boolean]>([
    [[], true],
    [["marketing"], true],
    [["perfilamiento"], false],
    [["bloqueo"], false],
  ])("restrictions %j → %s", (restrictions, expected) => {
    expect(mayProfile(restrictions)).toBe(expected);
  });
});
