import { describe, expect, it } from "vitest";
import {
  analyticsSettingsSchema,
  periodFromParams,
  periodQuery,
  settingsFromForm,
} from "./analytics-options";

const now = new Date("2026-11-24T15:00:00Z");
const params = (query: string) => new URLSearchParams(query);

describe("the period in the URL", () => {
  it("defaults to the user's default period, and takes a preset or a custom from–to", () => {
    expect(periodFromParams(params(""), "30", now)).toMatchObject({
      period: { kind: "30", from: "2026-10-26", to: "2026-11-24" },
      error: null,
    });
    expect(periodFromParams(params(""), "7", now).period.from).toBe("2026-11-18");
    expect(periodFromParams(params("period=90"), "30", now).period).toMatchObject({ kind: "90", days: 90 });
    const custom = periodFromParams(params("period=custom&from=2026-03-01&to=2026-03-31"), "30", now);
    expect(custom).toMatchObject({
      period: { kind: "custom", from: "2026-03-01", to: "2026-03-31", days: 31 },
    });
    expect(periodQuery(custom.period)).toBe("period=custom&from=2026-03-01&to=2026-03-31");
    // from/to without period= is a custom period as well.
    expect(periodFromParams(params("from=2026-03-01&to=2026-03-02"), "30", now).period.kind).toBe("custom");
  });

  it("refuses an invalid period in Spanish and shows the default one", () => {
    const cases = {
      "period=15": "Elige un período de 7, 30 o 90 días, o uno personalizado.",
      "period=custom&from=2026-02-30&to=2026-03-01": "Usa fechas válidas (AAAA-MM-DD).",
      "period=custom&from=2026-03-05&to=2026-03-01": "La fecha «Desde» debe ser anterior o igual a «Hasta».",
      "period=custom&from=2020-01-01&to=2026-03-01": "El período puede abarcar como máximo 366 días.",
      "period=custom&from=<script>&to=2026-03-01": "Usa fechas válidas (AAAA-MM-DD).",
    };
    for (const [query, message] of Object.entries(cases)) {
      const choice = periodFromParams(params(query), "30", now);
      expect({ query, error: choice.error, kind: choice.period.kind }).toEqual({
        query,
        error: message,
        kind: "30",
      });
    }
  });
});

describe("analytics settings", () => {
  it("reads the dialog's form: ticked charts are shown, the others hidden", () => {
    const form = new FormData();
    form.set("defaultPeriod", "7");
    form.set("comparison", "on");
    for (const key of ["by-source", "funnel", "treatment", "score", "engagement"]) form.append("chart", key);
    expect(settingsFromForm(form)).toMatchObject({
      success: true,
      data: { defaultPeriod: "7", comparison: true, hiddenCharts: ["by-level", "response-time"] },
    });
    const off = new FormData();
    off.set("defaultPeriod", "90");
    expect(settingsFromForm(off).data).toEqual({
      defaultPeriod: "90",
      comparison: false,
      hiddenCharts: ["by-source", "by-level", "funnel", "response-time", "treatment", "score", "engagement"],
    });
  });

  it("refuses forged values with Spanish messages", () => {
    const form = new FormData();
    form.set("defaultPeriod", "15");
    form.append("chart", "pie");
    const result = settingsFromForm(form);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      "Elige un período predeterminado de 7, 30 o 90 días.",
      "Uno de los gráficos elegidos no existe.",
    ]);
    expect(
      analyticsSettingsSchema.safeParse({
        defaultPeriod: "30",
        comparison: true,
        hiddenCharts: ["score", "score"],
      }).error?.issues[0]?.message,
    ).toBe("Un gráfico aparece repetido.");
    expect(
      analyticsSettingsSchema.safeParse({
        defaultPeriod: "30",
        comparison: true,
        hiddenCharts: [],
        isAdmin: true,
      }).success,
    ).toBe(false);
  });
});
