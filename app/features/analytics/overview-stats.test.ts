import { describe, expect, it } from "vitest";
import type { PeriodFigures } from "./analytics-dto";
import { overviewCards, overviewStages } from "./overview-stats";

const current: PeriodFigures = {
  total: 200,
  hot: 23,
  whatsapp: 89,
  contactedStage: 120,
  qualifiedStage: 45,
  converted: 23,
  medianResponseMinutes: 12.4,
};
const previous: PeriodFigures = {
  total: 160,
  hot: 23,
  whatsapp: 100,
  contactedStage: 90,
  qualifiedStage: 30,
  converted: 16,
  medianResponseMinutes: 10,
};

describe("overview cards", () => {
  it("builds the six cards with their change against the previous period", () => {
    expect(
      overviewCards(current, previous).map((card) => [card.label, card.value, card.change?.text]),
    ).toEqual([
      ["Total Leads", "200", "+25,0% vs. período anterior"],
      ["Leads Calientes", "23", "Sin cambio vs. período anterior"],
      ["Conversiones", "23", "+43,8% vs. período anterior"],
      // 11,5% against 10,0%.
      ["Tasa Conversión", "11,5%", "+1,5 pp vs. período anterior"],
      ["Tiempo Respuesta", "12 min", "+24,0% vs. período anterior"],
      ["WhatsApp", "89", "-11,0% vs. período anterior"],
    ]);
    const response = overviewCards(current, previous).find((card) => card.key === "response");
    expect(response).toMatchObject({
      hint: "Mediana desde la captura hasta el primer contacto",
      lowerIsBetter: true,
    });
  });

  it("has no change without the comparison, and no division by zero without leads", () => {
    expect(overviewCards(current, null).every((card) => card.change === undefined)).toBe(true);
    const empty = { ...current, total: 0, converted: 0, medianResponseMinutes: null };
    const cards = overviewCards(empty, { ...previous, total: 0, converted: 0, medianResponseMinutes: null });
    expect(cards.find((card) => card.key === "rate")).toMatchObject({
      value: "0,0%",
      change: { trend: "none" },
    });
    expect(cards.find((card) => card.key === "response")).toMatchObject({
      value: "—",
      change: { trend: "none" },
    });
    expect(overviewStages(empty).every((stage) => stage.share === 0)).toBe(true);
  });

  it("shows no change of the rate for a period without leads, not '-10,0 pp' from 0/0", () => {
    const empty = { ...current, total: 0, hot: 0, converted: 0, medianResponseMinutes: null };
    const cards = overviewCards(empty, { ...previous, total: 10, converted: 1, medianResponseMinutes: 8 });
    expect(cards.find((card) => card.key === "rate")?.change).toEqual({
      trend: "none",
      text: "Sin datos en este período",
      srText: "Sin datos en este período",
    });
    // The previous period had a median, this one has none: not "Sin datos del período anterior".
    expect(cards.find((card) => card.key === "response")?.change?.text).toBe("Sin datos en este período");
  });

  it("lists the four stages with their share of the captured leads", () => {
    expect(overviewStages(current).map((stage) => [stage.title, stage.count, stage.share])).toEqual([
      ["Captura", 200, 1],
      ["Contacto", 120, 0.6],
      ["Calificación", 45, 0.225],
      ["Conversión", 23, 0.115],
    ]);
  });
});
