import { describe, expect, it } from "vitest";
import type { LeadCounts } from "./funnel-dto";
import { formatPercent, formatResponseMinutes, funnelStages, statCards } from "./funnel-stats";

const counts: LeadCounts = {
  total: 200,
  hot: 23,
  warm: 100,
  cold: 77,
  new: 50,
  contactedStage: 120,
  qualifiedStage: 45,
  converted: 23,
  whatsapp: 89,
  avgResponseMinutes: 12.4,
};

describe("funnel stats", () => {
  it("formats the rate in es-CL with one decimal and the response time in minutes", () => {
    expect(formatPercent(0.115)).toBe("11,5%");
    expect(formatPercent(0)).toBe("0,0%");
    expect(formatResponseMinutes(12.4)).toBe("12 min");
    expect(formatResponseMinutes(1500)).toBe("1.500 min");
    expect(formatResponseMinutes(null)).toBe("—");
  });

  it("builds the six cards from the counts", () => {
    expect(statCards(counts).map((card) => [card.label, card.value])).toEqual([
      ["Total Leads", "200"],
      ["Leads Calientes", "23"],
      ["Conversiones", "23"],
      ["Tasa Conversión", "11,5%"],
      ["Tiempo Respuesta", "12 min"],
      ["WhatsApp", "89"],
    ]);
  });

  it("shows a 0% rate, not a division by zero, when there are no leads", () => {
    const empty = { ...counts, total: 0, converted: 0, avgResponseMinutes: null };
    expect(statCards(empty).find((card) => card.key === "rate")?.value).toBe("0,0%");
    expect(funnelStages(empty).every((stage) => stage.share === 0)).toBe(true);
  });

  it("lists the four stages with their share of captured leads", () => {
    expect(funnelStages(counts).map((stage) => [stage.title, stage.count, stage.share])).toEqual([
      ["Captura", 200, 1],
      ["Contacto", 120, 0.6],
      ["Calificación", 45, 0.225],
      ["Conversión", 23, 0.115],
    ]);
  });
});
