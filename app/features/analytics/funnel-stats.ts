/** Number formats of the Overview's cards and funnel (the cards themselves: features/analytics/overview-stats.ts). */
import { formatDurationMinutes } from "~/domain/format";

const percentFormatter = new Intl.NumberFormat("es-CL", {
  style: "percent",
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const integerFormatter = new Intl.NumberFormat("es-CL", { maximumFractionDigits: 0 });

export function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

/** 0.115 → "11,5%". */
export function formatPercent(value: number): string {
  return percentFormatter.format(value);
}

/** A response time: "12 min", "1 día 1 h", or "—" when no lead has been contacted yet. */
export function formatResponseMinutes(minutes: number | null): string {
  if (minutes === null || !Number.isFinite(minutes)) return "—";
  return formatDurationMinutes(minutes);
}

export function formatCount(value: number): string {
  return integerFormatter.format(value);
}
