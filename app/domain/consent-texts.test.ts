import { describe, expect, it } from "vitest";
import {
  canonicalConsentVersion,
  CHAT_AI_NOTICE_VERSION,
  consentTextOf,
  consentTexts,
  currentConsentText,
  knownConsentVersions,
} from "./consent-texts";
import { consentPurposes } from "./privacy";

describe("consent texts", () => {
  it("has a label, a description and a 'v1' text for every purpose of the ledger", () => {
    for (const purpose of consentPurposes) {
      const entry = consentTexts[purpose];
      expect(entry.label.length).toBeGreaterThan(5);
      expect(entry.description.length).toBeGreaterThan(10);
      expect(consentTextOf(purpose, "v1")?.text.length).toBeGreaterThan(10);
    }
  });

  it("keeps versions unique and in date order, the last one current", () => {
    for (const purpose of consentPurposes) {
      const versions = consentTexts[purpose].versions;
      expect(new Set(versions.map((v) => v.version)).size).toBe(versions.length);
      const dates = versions.map((v) => v.since);
      expect(dates).toEqual([...dates].toSorted());
      expect(currentConsentText(purpose)).toBe(versions[versions.length - 1]);
    }
  });

  it("reads the chat platform's earlier version name as 'v1' (the backfilled rooms)", () => {
    expect(canonicalConsentVersion("chat_ia", "2026-11-1")).toBe("v1");
    expect(consentTextOf("chat_ia", "2026-11-1")).toBe(consentTextOf("chat_ia", "v1"));
    expect(knownConsentVersions("chat_ia")).toEqual(["v1", "2026-11-1"]);
    expect(CHAT_AI_NOTICE_VERSION).toBe("v1");
  });

  it("answers null for a version that never existed", () => {
    expect(consentTextOf("marketing", "v9")).toBeNull();
    expect(canonicalConsentVersion("marketing", "2026-11-1")).toBe("2026-11-1");
  });

  it("is the wording the product shows", () => {
    expect(consentTextOf("recordatorios_whatsapp", "v1")?.text).toBe(
      "Recibir recordatorios y avisos de mis citas por WhatsApp",
    );
    expect(consentTextOf("datos_contacto", "v1")?.text).toContain("Política de Privacidad");
    expect(consentTextOf("chat_ia", "v1")?.text).toContain("asistente virtual automatizado");
  });
});
