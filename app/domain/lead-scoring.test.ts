import { describe, expect, it } from "vitest";
import { clampScore, followUpPromise, levelForScore, scoreLead, type LeadScoringInput } from "./lead-scoring";

const base: LeadScoringInput = {
  urgency: "evaluando",
  budget: "consultar",
  treatment: "evaluacion",
  phone: "+56912345678",
  email: null,
  message: "",
};
const longMessage = "Me gustaría saber si soy candidato a implantes y cuánto tiempo toma el tratamiento.";

describe("scoreLead rows", () => {
  it("scores nothing for the baseline", () => {
    expect(scoreLead(base)).toEqual({ score: 0, level: "cold", reasons: [] });
  });
  it.each([
    [{ urgency: "inmediato" }, 30, "Necesidad inmediata"],
    [{ urgency: "1-mes" }, 20, "Interés a corto plazo"],
    [{ urgency: "3-meses" }, 0, undefined],
    [{ budget: "alto" }, 25, "Presupuesto adecuado"],
    [{ budget: "medio" }, 25, "Presupuesto adecuado"],
    [{ budget: "bajo" }, 0, undefined],
    [{ treatment: "implantes" }, 20, "Tratamiento de alto valor"],
    [{ treatment: "estetica" }, 20, "Tratamiento de alto valor"],
    [{ treatment: "ortodoncia" }, 0, undefined],
    [{ email: "ana@example.com" }, 15, "Datos de contacto completos"],
    [{ email: "   " }, 0, undefined],
    [{ phone: "", email: "ana@example.com" }, 0, undefined],
    [{ message: longMessage }, 10, "Consulta detallada"],
    [{ message: "x".repeat(50) }, 0, undefined],
    [{ message: "x".repeat(51) }, 10, "Consulta detallada"],
  ] as const)("%o gives %i points", (change, points, reason) => {
    const result = scoreLead({ ...base, ...change });
    expect(result.score).toBe(points);
    expect(result.reasons).toEqual(reason ? [reason] : []);
  });
});

describe("scenarios of spec 001 §5", () => {
  it("hot scenario scores 85", () => {
    const result = scoreLead({
      ...base,
      urgency: "inmediato",
      budget: "alto",
      treatment: "implantes",
      message: longMessage,
    });
    expect(result).toMatchObject({ score: 85, level: "hot" });
  });
  it("warm scenario scores 55", () => {
    const result = scoreLead({
      ...base,
      urgency: "1-mes",
      budget: "medio",
      treatment: "ortodoncia",
      message: longMessage,
    });
    expect(result).toMatchObject({ score: 55, level: "warm" });
  });
  it("cold scenario scores 25", () => {
    const result = scoreLead({ ...base, email: "ana@example.com", message: longMessage });
    expect(result).toMatchObject({ score: 25, level: "cold" });
  });
  it("every rule at once reaches exactly the cap of 100", () => {
    const result = scoreLead({
      urgency: "inmediato",
      budget: "alto",
      treatment: "estetica",
      phone: "+56912345678",
      email: "ana@example.com",
      message: longMessage,
    });
    expect(result.score).toBe(100);
    expect(result.reasons).toHaveLength(5);
  });
});

describe("cap and thresholds", () => {
  it("clamps to 0..100", () => {
    expect(clampScore(130)).toBe(100);
    expect(clampScore(-5)).toBe(0);
    expect(clampScore(42)).toBe(42);
  });
  it("uses 70 and 40 as thresholds", () => {
    expect(levelForScore(70)).toBe("hot");
    expect(levelForScore(69)).toBe("warm");
    expect(levelForScore(40)).toBe("warm");
    expect(levelForScore(39)).toBe("cold");
  });
  it("promises a follow-up per level", () => {
    expect(followUpPromise("hot").title).toContain("15 minutos");
    expect(followUpPromise("warm").title).toContain("2 a 4 horas");
    expect(followUpPromise("cold").title).toContain("24 a 48 horas");
  });
});
