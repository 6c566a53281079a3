import { periodDays, shortDay } from "~/domain/analytics-period";
import { CSV_BOM, csvCell, csvRow } from "~/domain/csv";
import { FUNNEL_STAGE } from "~/domain/lead-pipeline";
import { treatments } from "~/domain/lead-scoring";
import { formatCount, formatPercent, formatResponseMinutes, ratio } from "./funnel-stats";
import {
  labelOf,
  leadLevelLabels,
  leadLevels,
  leadSourceLabels,
  treatmentLabels,
} from "~/domain/lead-labels";
import { chartTitles, type ChartKey } from "./analytics-options";
import type { ChartData, ChartRow, PeriodFigures } from "./analytics-dto";

/** Each Analytics chart's rows and series from the repository's aggregates (ADR 026). Pure. */

export interface DailyCount {
  day: string;
  source: string;
  level: string;
  count: number;
}

const knownSources = Object.keys(leadSourceLabels);

/** "1 lead", "3 leads". */
export function leadCount(count: number): string {
  return count === 1 ? "1 lead" : `${formatCount(count)} leads`;
}

function total(rows: ChartRow[]): number {
  return rows.reduce((sum, row) => sum + row.values.reduce((a, b) => a + b, 0), 0);
}

function perDay(
  key: ChartKey,
  days: string[],
  counts: DailyCount[],
  seriesKeys: string[],
  seriesOf: (row: DailyCount) => string,
  labels: Record<string, string>,
  periodText: string,
): ChartData {
  const index = new Map(days.map((day, position) => [day, position]));
  const values = days.map(() => seriesKeys.map(() => 0));
  for (const row of counts) {
    const dayIndex = index.get(row.day);
    const seriesIndex = seriesKeys.indexOf(seriesOf(row));
    if (dayIndex === undefined || seriesIndex < 0) continue;
    values[dayIndex]![seriesIndex]! += row.count;
  }
  const rows = days.map((day, position) => ({
    key: day,
    label: shortDay(day),
    csvLabel: day,
    values: values[position]!,
  }));
  const series = seriesKeys.map((item) => ({ key: item, label: labelOf(labels, item) }));
  const totals = series
    .map(
      (item, position) =>
        `${item.label}: ${formatCount(rows.reduce((sum, row) => sum + row.values[position]!, 0))}`,
    )
    .join(", ");
  return {
    key,
    title: chartTitles[key],
    summary: `${leadCount(total(rows))} ${periodText} (${totals}).`,
    layout: "stacked",
    categoryLabel: "Día",
    valueLabel: "Leads",
    series,
    rows,
    extras: [],
  };
}

export function leadsBySourceChart(
  period: { from: string; days: number },
  counts: DailyCount[],
  periodText: string,
): ChartData {
  // Sources outside the known list (a new channel) still get their own series.
  const extra = [...new Set(counts.map((row) => row.source))]
    .filter((item) => !knownSources.includes(item))
    .toSorted();
  return perDay(
    "by-source",
    periodDays(period),
    counts,
    [...knownSources, ...extra],
    (row) => row.source,
    leadSourceLabels,
    periodText,
  );
}

export function leadsByLevelChart(
  period: { from: string; days: number },
  counts: DailyCount[],
  periodText: string,
): ChartData {
  return perDay(
    "by-level",
    periodDays(period),
    counts,
    [...leadLevels],
    (row) => row.level,
    leadLevelLabels,
    periodText,
  );
}

type StageCounts = Pick<PeriodFigures, "total" | "contactedStage" | "qualifiedStage" | "converted">;

/**
 * The funnel's stages from the counts per furthest stage reached (`leads.furthest_stage`): cumulative, so a lead
 * contacted and then lost still counts in 'Contacto' (ADR 025, 026).
 */
export function stageCounts(rows: Array<{ status: string; stage: number; count: number }>): StageCounts {
  const sum = (keep: (row: { status: string; stage: number }) => boolean) =>
    rows.reduce((running, row) => (keep(row) ? running + row.count : running), 0);
  return {
    total: sum(() => true),
    contactedStage: sum((row) => row.stage >= FUNNEL_STAGE.contacted),
    qualifiedStage: sum((row) => row.stage >= FUNNEL_STAGE.qualified),
    converted: sum((row) => row.status === "converted"),
  };
}

/** Leads and conversions per treatment from the counts per treatment and status. */
export function treatmentTotals(
  rows: Array<{ treatment: string; status: string; stage: number; count: number }>,
) {
  const totals = new Map<string, { treatment: string; total: number; converted: number }>();
  for (const row of rows) {
    const entry = totals.get(row.treatment) ?? { treatment: row.treatment, total: 0, converted: 0 };
    entry.total += row.count;
    if (row.status === "converted") entry.converted += row.count;
    totals.set(row.treatment, entry);
  }
  return [...totals.values()];
}

export function funnelChart(figures: StageCounts, periodText: string): ChartData {
  const stages = [
    { key: "captura", label: "Captura", count: figures.total },
    { key: "contacto", label: "Contacto", count: figures.contactedStage },
    { key: "calificacion", label: "Calificación", count: figures.qualifiedStage },
    { key: "conversion", label: "Conversión", count: figures.converted },
  ];
  return {
    key: "funnel",
    title: chartTitles.funnel,
    summary: `De ${leadCount(figures.total)} ${periodText}, ${formatCount(figures.converted)} se convirtieron (${formatPercent(ratio(figures.converted, figures.total))}).`,
    layout: "grouped",
    categoryLabel: "Etapa",
    valueLabel: "Leads",
    series: [{ key: "leads", label: "Leads" }],
    rows: stages.map((stage) => ({
      key: stage.key,
      label: stage.label,
      csvLabel: stage.label,
      values: [stage.count],
    })),
    extras: [
      {
        label: "% de la captura",
        values: stages.map((stage) => formatPercent(ratio(stage.count, figures.total))),
      },
    ],
  };
}

export const responseBucketLabels = [
  "Menos de 15 min",
  "15 a 59 min",
  "1 a 4 horas",
  "4 a 24 horas",
  "1 a 3 días",
  "Más de 3 días",
] as const;
const NOT_CONTACTED = "Sin contactar";

export function responseTimeChart(
  buckets: Array<{ bucket: number; count: number }>,
  periodText: string,
): ChartData {
  const countOf = (bucket: number) => buckets.find((row) => row.bucket === bucket)?.count ?? 0;
  const rows = [
    ...responseBucketLabels.map((label, index) => ({
      key: String(index),
      label,
      csvLabel: label,
      values: [countOf(index)],
    })),
    { key: "none", label: NOT_CONTACTED, csvLabel: NOT_CONTACTED, values: [countOf(-1)] },
  ];
  const contacted = total(rows) - countOf(-1);
  return {
    key: "response-time",
    title: chartTitles["response-time"],
    summary: `Leads ${periodText}: ${formatCount(contacted)} contactados, ${formatCount(countOf(-1))} aún sin contactar.`,
    layout: "grouped",
    categoryLabel: "Tiempo hasta el primer contacto",
    valueLabel: "Leads",
    series: [{ key: "leads", label: "Leads" }],
    rows,
    extras: [],
  };
}

export function treatmentChart(
  counts: Array<{ treatment: string; total: number; converted: number }>,
  periodText: string,
): ChartData {
  const extra = counts
    .map((row) => row.treatment)
    .filter((item) => !(treatments as readonly string[]).includes(item));
  const keys = [...treatments, ...extra.toSorted()];
  const rows = keys.map((key) => {
    const row = counts.find((item) => item.treatment === key);
    const label = labelOf(treatmentLabels, key);
    return { key, label, csvLabel: label, values: [row?.total ?? 0, row?.converted ?? 0] };
  });
  const leadsTotal = rows.reduce((sum, row) => sum + row.values[0]!, 0);
  return {
    key: "treatment",
    title: chartTitles.treatment,
    summary: `${leadCount(leadsTotal)} ${periodText} por tratamiento de interés, con sus conversiones.`,
    layout: "grouped",
    categoryLabel: "Tratamiento",
    valueLabel: "Leads",
    series: [
      { key: "leads", label: "Leads" },
      { key: "converted", label: "Convertidos" },
    ],
    rows,
    extras: [
      {
        label: "Tasa de conversión",
        values: rows.map((row) => formatPercent(ratio(row.values[1]!, row.values[0]!))),
      },
    ],
  };
}

export function scoreChart(buckets: Array<{ bucket: number; count: number }>, periodText: string): ChartData {
  const rows = Array.from({ length: 10 }, (_, index) => {
    const label = index === 9 ? "90–100" : `${index * 10}–${index * 10 + 9}`;
    return {
      key: String(index),
      label,
      csvLabel: label,
      values: [buckets.find((row) => row.bucket === index)?.count ?? 0],
    };
  });
  return {
    key: "score",
    title: chartTitles.score,
    summary: `Puntaje de ${total(rows) === 1 ? "el único lead" : `los ${formatCount(total(rows))} leads`} ${periodText}, en tramos de 10 puntos.`,
    layout: "grouped",
    categoryLabel: "Puntaje",
    valueLabel: "Leads",
    series: [{ key: "leads", label: "Leads" }],
    rows,
    extras: [],
  };
}

/** The engagement loop's counts for a period (`engagement-repository.server.ts` says what each counts). */
export interface EngagementCounts {
  kept: number;
  confirmed: number;
  started: number;
  noShows: number;
  booked: number;
  lateCancellations: number;
  freedSlots: number;
  refilled: number;
  medianRefillMinutes: number | null;
  formsDue: number;
  formsBeforeVisit: number;
}

/** A rate, or a dash when there is nothing to count it on. */
function rate(cases: number, base: number): string {
  return base > 0 ? formatPercent(ratio(cases, base)) : "—";
}

/**
 * The loop's figures (issue 23, ADR 042): one row per figure with its cases, its base and the rate; the waitlist
 * row also carries the median time to refill.
 */
export function engagementChart(figures: EngagementCounts, periodText: string): ChartData {
  const median = formatResponseMinutes(figures.medianRefillMinutes);
  const figureRows = [
    {
      key: "confirmation",
      label: "Citas confirmadas",
      cases: figures.confirmed,
      base: figures.kept,
      detail: "",
    },
    { key: "no-show", label: "Inasistencias", cases: figures.noShows, base: figures.started, detail: "" },
    {
      key: "late-cancellation",
      label: "Canceladas con menos de 24 h",
      cases: figures.lateCancellations,
      base: figures.booked,
      detail: "",
    },
    {
      key: "waitlist",
      label: "Horas liberadas repuestas desde la lista de espera",
      cases: figures.refilled,
      base: figures.freedSlots,
      detail: figures.refilled > 0 ? `Mediana: ${median}` : "",
    },
    {
      key: "forms",
      label: "Formularios completos antes de la visita",
      cases: figures.formsBeforeVisit,
      base: figures.formsDue,
      detail: "",
    },
  ];
  return {
    key: "engagement",
    title: chartTitles.engagement,
    summary:
      `Citas ${periodText}: confirmación ${rate(figures.confirmed, figures.kept)}, ` +
      `inasistencias ${rate(figures.noShows, figures.started)}, ` +
      `canceladas con menos de 24 h ${rate(figures.lateCancellations, figures.booked)}; ` +
      `${formatCount(figures.refilled)} de ${formatCount(figures.freedSlots)} horas liberadas repuestas desde la lista de espera` +
      (figures.refilled > 0 ? ` (mediana ${median})` : "") +
      `; formularios completos antes de la visita ${rate(figures.formsBeforeVisit, figures.formsDue)}.`,
    layout: "grouped",
    categoryLabel: "Indicador",
    valueLabel: "Cantidad",
    series: [
      { key: "cases", label: "Casos" },
      { key: "base", label: "Total" },
    ],
    rows: figureRows.map((row) => ({
      key: row.key,
      label: row.label,
      csvLabel: row.label,
      values: [row.cases, row.base],
    })),
    extras: [
      { label: "Tasa", values: figureRows.map((row) => rate(row.cases, row.base)) },
      { label: "Tiempo para reponer", values: figureRows.map((row) => row.detail) },
    ],
  };
}

/** A chart as CSV in the product's one spreadsheet dialect (`domain/csv.ts`: `;`, UTF-8 BOM, formulas neutralised). */
export function chartCsv(chart: ChartData): string {
  const header = [
    chart.categoryLabel,
    ...chart.series.map((item) => item.label),
    ...chart.extras.map((item) => item.label),
  ];
  const rows = chart.rows.map((row, index) => [
    row.csvLabel,
    ...row.values,
    ...chart.extras.map((extra) => extra.values[index] ?? ""),
  ]);
  return CSV_BOM + [header, ...rows].map((cells) => csvRow(cells.map(csvCell))).join("");
}
