import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { leadsByLevelChart, treatmentChart, treatmentTotals } from "../analytics-charts";
import { AnalyticsChartSvg, seriesColour, wrapLabel } from "./analytics-chart";

/** WCAG relative luminance contrast of a #rrggbb colour against white. */
function contrastOnWhite(hex: string): number {
  const channel = (index: number) => {
    const value = Number.parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16) / 255;
    return value <= 0.039_28 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (luminance + 0.05);
}

describe("analytics chart SVG", () => {
  const chart = leadsByLevelChart(
    { from: "2026-11-01", days: 3 },
    [
      { day: "2026-11-01", source: "web", level: "hot", count: 2 },
      { day: "2026-11-03", source: "web", level: "cold", count: 1 },
    ],
    "de prueba",
  );

  it("renders on the server as a labelled image with a pattern per series and one bar per non-zero value", () => {
    const html = renderToStaticMarkup(<AnalyticsChartSvg chart={chart} />);
    expect(html).toMatch(
      /^<svg[^>]* role="img" aria-labelledby="grafico-by-level-titulo grafico-by-level-descripcion"/,
    );
    expect(html).toContain('<title id="grafico-by-level-titulo">Leads por día según nivel</title>');
    expect(html).toContain(
      '<desc id="grafico-by-level-descripcion">3 leads de prueba (Caliente: 2, Tibio: 0, Frío: 1).</desc>',
    );
    expect(html.match(/<pattern /g)).toHaveLength(3);
    expect(html.match(/fill="url\(#patron-by-level-\d\)"/g)).toHaveLength(2);
    // Axis labels are plain text rendered here, nothing measured in the browser.
    expect(html).toContain(">1 nov<");
    expect(html).not.toContain("__react_svg_text_measurement_id");
  });

  it("labels grouped bars directly and wraps long category names", () => {
    const treatment = treatmentChart(
      treatmentTotals([{ treatment: "estetica", status: "new", stage: 0, count: 2 }]),
      "x",
    );
    const html = renderToStaticMarkup(<AnalyticsChartSvg chart={treatment} />);
    expect(html).toContain("<tspan");
    expect(wrapLabel("Estética dental y facial", 15)).toEqual(["Estética dental", "y facial"]);
    expect(wrapLabel("Ortodoncia", 4)).toEqual(["Ortodoncia"]);
  });

  it("uses series colours of at least 4.5:1 against white", () => {
    const colours = ["hot", "warm", "cold", "converted", "a", "b", "c", "d", "e", "f"].map(seriesColour);
    for (const colour of colours) expect(contrastOnWhite(colour)).toBeGreaterThanOrEqual(4.5);
  });
});
