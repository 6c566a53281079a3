import type { Change, ReportPeriod } from "~/domain/analytics-period";
import type { AnalyticsSettings, ChartKey } from "./analytics-options";

/** What the Overview's and Analytics' loaders send to the page (client-safe types). */

export interface StatCard {
  key: string;
  label: string;
  value: string;
  hint: string;
  /** Against the previous period of equal length; absent when the comparison is off. */
  change?: Change;
  /** For 'Tiempo Respuesta' a rise is bad news; for the others, good. */
  lowerIsBetter?: boolean;
}

export interface FunnelStage {
  key: string;
  title: string;
  channel: string;
  count: number;
  /** Share of the first stage, 0..1. */
  share: number;
}

export interface PeriodFigures {
  total: number;
  hot: number;
  whatsapp: number;
  /** Funnel stage "Contacto": contacted, qualified, scheduled or converted. */
  contactedStage: number;
  /** Funnel stage "Calificación": qualified, scheduled or converted. */
  qualifiedStage: number;
  converted: number;
  /** Median minutes from creation to the first contact, among the leads contacted; null when none was. */
  medianResponseMinutes: number | null;
}

/** The period as the page shows it and as the picker and links rebuild it. */
export interface PeriodView {
  kind: ReportPeriod["kind"];
  from: string;
  to: string;
  days: number;
  label: string;
  previousLabel: string;
  /** The query string selecting this period (`period=30`, `period=custom&from=…&to=…`). */
  query: string;
  error: string | null;
}

export interface ChartSeries {
  key: string;
  label: string;
}

export interface ChartRow {
  key: string;
  /** The axis' and table's label ("3 nov", "Implantes dentales"). */
  label: string;
  /** The CSV's first cell (an ISO date for days, the label otherwise). */
  csvLabel: string;
  values: number[];
}

export interface ChartData {
  key: ChartKey;
  title: string;
  /** One sentence for the SVG's description and the table's caption. */
  summary: string;
  layout: "stacked" | "grouped";
  categoryLabel: string;
  valueLabel: string;
  series: ChartSeries[];
  rows: ChartRow[];
  /** Derived columns for the table and the CSV (e.g. the conversion rate), one value per row. */
  extras: Array<{ label: string; values: string[] }>;
}

export interface AnalyticsTabData {
  period: PeriodView;
  settings: AnalyticsSettings;
  charts: ChartData[];
  /** The charts the user hid, for the settings dialog. */
  hidden: ChartKey[];
}
