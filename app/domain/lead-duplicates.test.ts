import { describe, expect, it } from "vitest";
import { higherUrgency, mergeDuplicate, normalizedEmail, phoneDigits } from "./lead-duplicates";
import { scoreLead } from "./lead-scoring";

const existing = {
  treatment: "implantes",
  urgency: "3-meses",
  budget: "alto",
  phone: "+56912345678",
  email: "ana@example.com",
  message: "",
} as const;

describe("contact comparison", () => {
  it("compares phones by their digits and e-mails without case", () => {
    expect(phoneDigits("+56 9 1234-5678")).toBe(phoneDigits("+56912345678"));
    expect(normalizedEmail("  Ana@Example.COM ")).toBe("ana@example.com");
    expect(normalizedEmail("   ")).toBeNull();
    expect(normalizedEmail(null)).toBeNull();
  });

  it("takes the more pressing urgency", () => {
    expect(higherUrgency("3-meses", "inmediato")).toBe("inmediato");
    expect(higherUrgency("1-mes", "evaluando")).toBe("1-mes");
    expect(higherUrgency("evaluando", "evaluando")).toBe("evaluando");
  });
});

describe("mergeDuplicate", () => {
  it("re-scores with the higher urgency", () => {
    const merged = mergeDuplicate(existing, {
      treatment: "ortodoncia",
      urgency: "inmediato",
      budget: "bajo",
      email: null,
    });
    expect(merged.answers).toMatchObject({ treatment: "implantes", urgency: "inmediato", budget: "alto" });
    expect(merged.score).toEqual(scoreLead(merged.answers));
    expect(merged.score.score).toBeGreaterThan(scoreLead(existing).score);
  });

  it("keeps the higher urgency it had and never lowers the score", () => {
    const hot = { ...existing, urgency: "inmediato" } as const;
    const merged = mergeDuplicate(hot, {
      treatment: "evaluacion",
      urgency: "evaluando",
      budget: "consultar",
      email: "x@y.cl",
    });
    expect(merged.answers).toEqual(hot);
    expect(merged.score.score).toBe(scoreLead(hot).score);
  });

  it("replaces placeholders of a WhatsApp lead and fills a missing e-mail", () => {
    const whatsapp = {
      ...existing,
      treatment: "evaluacion",
      urgency: "evaluando",
      budget: "consultar",
      email: null,
    } as const;
    const merged = mergeDuplicate(whatsapp, {
      treatment: "estetica",
      urgency: "1-mes",
      budget: "medio",
      email: "Ana@Example.com",
    });
    expect(merged.answers).toMatchObject({
      treatment: "estetica",
      urgency: "1-mes",
      budget: "medio",
      email: "ana@example.com",
    });
  });
});
