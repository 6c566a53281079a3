import { describe, expect, it } from "vitest";
import {
  chartCsv,
  engagementChart,
  funnelChart,
  leadsByLevelChart,
  leadsBySourceChart,
  responseTimeChart,
  scoreChart,
  stageCounts,
  treatmentChart,
  treatmentTotals,
} from "./analytics-charts";

const period = { from: "2026-11-01", days: 3 };

describe("analytics charts", () => {
  const daily = [
    { day: "2026-11-01", source: "web", level: "hot", count: 2 },
    { day: "2026-11-01", source: "whatsapp", level: "cold", count: 1 },
    { day: "2026-11-03", source: "web", level: "warm", count: 4 },
    { day: "2026-11-03", source: "tiktok", level: "warm", count: 1 },
  ];

  it("fills every day of the period, one series per source (an unknown source too)", () => {
    const chart = leadsBySourceChart(period, daily, "de prueba");
    expect(chart.series.map((item) => item.label)).toEqual([
      "Web",
      "Asistente virtual",
      "WhatsApp",
      "Redes sociales",
      "tiktok",
    ]);
    expect(chart.rows.map((row) => [row.csvLabel, row.values])).toEqual([
      ["2026-11-01", [2, 0, 1, 0, 0]],
      ["2026-11-02", [0, 0, 0, 0, 0]],
      ["2026-11-03", [4, 0, 0, 0, 1]],
    ]);
    expect(chart.summary).toBe(
      "8 leads de prueba (Web: 6, Asistente virtual: 0, WhatsApp: 1, Redes sociales: 0, tiktok: 1).",
    );
  });

  it("sums the same rows per level", () => {
    const chart = leadsByLevelChart(period, daily, "de prueba");
    expect(chart.series.map((item) => item.key)).toEqual(["hot", "warm", "cold"]);
    expect(chart.rows.map((row) => row.values)).toEqual([
      [2, 0, 1],
      [0, 0, 0],
      [0, 5, 0],
    ]);
  });

  it("counts lost leads in every stage they reached: 10 contacted, 5 then lost, 'Contacto' still 10", () => {
    const stages = stageCounts([
      { status: "contacted", stage: 1, count: 5 },
      { status: "lost", stage: 1, count: 5 },
      { status: "lost", stage: 3, count: 2 },
      { status: "lost", stage: 0, count: 3 },
    ]);
    expect(stages).toEqual({ total: 15, contactedStage: 12, qualifiedStage: 2, converted: 0 });
  });

  it("builds the funnel, response-time, treatment and score charts", () => {
    const funnel = funnelChart(
      stageCounts([
        { status: "new", stage: 0, count: 4 },
        { status: "contacted", stage: 1, count: 2 },
        { status: "qualified", stage: 2, count: 1 },
        { status: "scheduled", stage: 3, count: 1 },
        { status: "converted", stage: 4, count: 2 },
      ]),
      "x",
    );
    expect(funnel.rows.map((row) => row.values[0])).toEqual([10, 6, 4, 2]);
    expect(funnel.extras[0]?.values).toEqual(["100,0%", "60,0%", "40,0%", "20,0%"]);

    const response = responseTimeChart(
      [
        { bucket: 0, count: 3 },
        { bucket: 5, count: 1 },
        { bucket: -1, count: 4 },
      ],
      "x",
    );
    expect(response.rows.map((row) => [row.label, row.values[0]])).toEqual([
      ["Menos de 15 min", 3],
      ["15 a 59 min", 0],
      ["1 a 4 horas", 0],
      ["4 a 24 horas", 0],
      ["1 a 3 días", 0],
      ["Más de 3 días", 1],
      ["Sin contactar", 4],
    ]);

    const treatment = treatmentChart(
      treatmentTotals([
        { treatment: "implantes", status: "new", stage: 0, count: 3 },
        { treatment: "implantes", status: "converted", stage: 4, count: 1 },
        { treatment: "ortodoncia", status: "lost", stage: 1, count: 2 },
      ]),
      "x",
    );
    expect(treatment.rows.map((row) => [row.label, ...row.values])).toEqual([
      ["Implantes dentales", 4, 1],
      ["Estética dental y facial", 0, 0],
      ["Ortodoncia", 2, 0],
      ["Evaluación general", 0, 0],
    ]);
    expect(treatment.extras[0]?.values).toEqual(["25,0%", "0,0%", "0,0%", "0,0%"]);

    const score = scoreChart(
      [
        { bucket: 2, count: 1 },
        { bucket: 9, count: 2 },
      ],
      "x",
    );
    expect(score.rows.map((row) => row.label)).toEqual([
      "0–9",
      "10–19",
      "20–29",
      "30–39",
      "40–49",
      "50–59",
      "60–69",
      "70–79",
      "80–89",
      "90–100",
    ]);
    expect(score.rows.map((row) => row.values[0])).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0, 2]);
  });

  it("writes CSV in the shared dialect (BOM, `;`, CRLF) with no spreadsheet formulas", () => {
    const chart = leadsBySourceChart(
      { from: "2026-11-01", days: 1 },
      [{ day: "2026-11-01", source: '=HYPERLINK("x")', level: "hot", count: 1 }],
      "x",
    );
    const csv = chartCsv(chart);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv.slice(1).split("\r\n")).toEqual([
      'Día;Web;Asistente virtual;WhatsApp;Redes sociales;"\'=HYPERLINK(""x"")"',
      "2026-11-01;0;0;0;0;1",
      "",
    ]);
  });
});

describe("engagementChart", () => {
  const figures = {
    kept: 10,
    confirmed: 8,
    started: 8,
    noShows: 1,
    booked: 12,
    lateCancellations: 2,
    freedSlots: 4,
    refilled: 3,
    medianRefillMinutes: 25,
    formsDue: 5,
    formsBeforeVisit: 4,
  };

  it("has one row per figure with cases, base, rate and the median time to refill", () => {
    const chart = engagementChart(figures, "de los últimos 30 días");
    expect(chart.rows.map((row) => [row.label, ...row.values])).toEqual([
      ["Citas confirmadas", 8, 10],
      ["Inasistencias", 1, 8],
      ["Canceladas con menos de 24 h", 2, 12],
      ["Horas liberadas repuestas desde la lista de espera", 3, 4],
      ["Formularios completos antes de la visita", 4, 5],
    ]);
    expect(chart.extras[0]?.values).toEqual(["80,0%", "12,5%", "16,7%", "75,0%", "80,0%"]);
    expect(chart.extras[1]?.values).toEqual(["", "", "", "Mediana: 25 min", ""]);
    expect(chart.summary).toContain("confirmación 80,0%");
    expect(chart.summary).toContain("(mediana 25 min)");
  });

  it("shows a dash, not 0 %, for a figure without a base", () => {
    const chart = engagementChart(
      { ...figures, freedSlots: 0, refilled: 0, medianRefillMinutes: null, formsDue: 0, formsBeforeVisit: 0 },
      "de los últimos 7 días",
    );
    expect(chart.extras[0]?.values.slice(3)).toEqual(["—", "—"]);
    expect(chart.summary).not.toContain("mediana");
  });
});
