/**
 * The Overview's and Analytics' reporting period (ADR 026): whole clinic calendar days (America/Santiago, DESIGN
 * decision 8), the last 7, 30 or 90 days ending today, or a custom from–to; and the previous period of equal length
 * that each figure is compared with. Pure.
 */
import { addDays, clinicDate, startOfClinicDay } from "./clinic-time";
import { formatShortDate, formatShortDay } from "./format";

export const PERIOD_PRESETS = [7, 30, 90] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export const DEFAULT_PERIOD_DAYS: PeriodPreset = 30;
/** A custom period spans at most this many days (a year and a leap day). */
export const MAX_PERIOD_DAYS = 366;

export interface ReportPeriod {
  /** "7" | "30" | "90" for a preset, "custom" for a from–to. */
  kind: "7" | "30" | "90" | "custom";
  /** First and last clinic calendar day, inclusive ("YYYY-MM-DD"). */
  from: string;
  to: string;
  days: number;
  /** Instants bounding the period: [start, end). */
  start: Date;
  end: Date;
  previous: { from: string; to: string; start: Date; end: Date };
}

const DAY_MS = 86_400_000;

/** Calendar days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

function bounds(from: string, to: string) {
  return { from, to, start: startOfClinicDay(from), end: startOfClinicDay(addDays(to, 1)) };
}

/** The period from `from` to `to` (inclusive clinic days) and the equal-length period right before it. */
export function periodBetween(from: string, to: string, kind: ReportPeriod["kind"] = "custom"): ReportPeriod {
  const days = daysBetween(from, to);
  if (days < 1) throw new RangeError(`Período vacío: ${from} a ${to}`);
  const previousTo = addDays(from, -1);
  return { kind, days, ...bounds(from, to), previous: bounds(addDays(previousTo, -(days - 1)), previousTo) };
}

/** The last `days` clinic days, today included. */
export function presetPeriod(days: PeriodPreset, now: Date): ReportPeriod {
  const today = clinicDate(now);
  return periodBetween(addDays(today, -(days - 1)), today, String(days) as ReportPeriod["kind"]);
}

/** Every clinic day of the period, in order (the x axis of the per-day charts). */
export function periodDays(period: Pick<ReportPeriod, "from" | "days">): string[] {
  return Array.from({ length: period.days }, (_, index) => addDays(period.from, index));
}

export type Trend = "up" | "down" | "flat" | "none";

export interface Change {
  trend: Trend;
  /** The visible text, e.g. "+12,5% vs. período anterior". */
  text: string;
  /** The same for a screen reader, in words (the arrow is only decoration). */
  srText: string;
}

const changeFormatter = new Intl.NumberFormat("es-CL", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
  signDisplay: "exceptZero",
});

const VS = "vs. período anterior";

function trendOf(delta: number): Trend {
  if (Math.abs(delta) < 0.0005) return "flat";
  return delta > 0 ? "up" : "down";
}

function describe(trend: Trend, text: string): string {
  if (trend === "up") return `Aumentó: ${text}`;
  if (trend === "down") return `Disminuyó: ${text}`;
  return text;
}

const NO_CURRENT = "Sin datos en este período";
const NO_PREVIOUS = "Sin datos del período anterior";

function noChange(text: string): Change {
  return { trend: "none", text, srText: text };
}

/**
 * Relative change of a count or a duration: 10 → 12 is "+20,0% vs. período anterior". Without a value now (a median
 * of no contacted lead) the card says so; without a previous value (null, or 0 with something now) there is no
 * percentage to give.
 */
export function relativeChange(current: number | null, previous: number | null): Change {
  if (current === null) return noChange(NO_CURRENT);
  if (previous === null || (previous === 0 && current !== 0)) return noChange(NO_PREVIOUS);
  const ratio = previous === 0 ? 0 : (current - previous) / previous;
  const trend = trendOf(ratio);
  const text = trend === "flat" ? `Sin cambio ${VS}` : `${changeFormatter.format(ratio * 100)}% ${VS}`;
  return { trend, text, srText: describe(trend, text) };
}

/**
 * Change of a rate (0..1) in percentage points: 20% → 25% is "+5,0 pp vs. período anterior" (a relative change of a
 * percentage reads ambiguously). No rate (null) for a period without leads: 0/0 is not 0%.
 */
export function pointChange(current: number | null, previous: number | null): Change {
  if (current === null) return noChange(NO_CURRENT);
  if (previous === null) return noChange(NO_PREVIOUS);
  const delta = (current - previous) * 100;
  const trend = trendOf(delta / 100);
  const text = trend === "flat" ? `Sin cambio ${VS}` : `${changeFormatter.format(delta)} pp ${VS}`;
  return { trend, text, srText: describe(trend, text).replace(" pp ", " puntos porcentuales ") };
}

/** "2026-11-03" → "3 nov" (a chart's axis label). */
export const shortDay = formatShortDay;

/** "26 oct 2026 – 24 nov 2026". */
export function periodLabel(period: Pick<ReportPeriod, "from" | "to">): string {
  const from = formatShortDate(period.from);
  const to = formatShortDate(period.to);
  return period.from === period.to ? from : `${from} – ${to}`;
}
