import type { FunnelStage, LeadCounts, StatCard } from "./funnel-dto";

/** The Overview's cards and funnel from real counts (spec 001 §2; the spec's hardcoded demo figures are not used). */

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

/** Average response time: "12 min", or "—" when no lead has been contacted yet. */
export function formatResponseMinutes(minutes: number | null): string {
  if (minutes === null || !Number.isFinite(minutes)) return "—";
  return `${integerFormatter.format(Math.round(minutes))} min`;
}

export function formatCount(value: number): string {
  return integerFormatter.format(value);
}

export function statCards(counts: LeadCounts): StatCard[] {
  return [
    {
      key: "total",
      label: "Total Leads",
      value: formatCount(counts.total),
      hint: "Todos los leads captados",
    },
    {
      key: "hot",
      label: "Leads Calientes",
      value: formatCount(counts.hot),
      hint: "Puntaje de 70 o más",
    },
    {
      key: "converted",
      label: "Conversiones",
      value: formatCount(counts.converted),
      hint: "Leads en estado convertido",
    },
    {
      key: "rate",
      label: "Tasa Conversión",
      value: formatPercent(ratio(counts.converted, counts.total)),
      hint: "Conversiones sobre el total",
    },
    {
      key: "response",
      label: "Tiempo Respuesta",
      value: formatResponseMinutes(counts.avgResponseMinutes),
      hint: "Promedio desde la captura hasta el último contacto",
    },
    {
      key: "whatsapp",
      label: "WhatsApp",
      value: formatCount(counts.whatsapp),
      hint: "Leads llegados por WhatsApp",
    },
  ];
}

export function funnelStages(counts: LeadCounts): FunnelStage[] {
  const stages = [
    { key: "captura", title: "Captura", channel: "Landing Page", count: counts.total },
    { key: "contacto", title: "Contacto", channel: "WhatsApp", count: counts.contactedStage },
    { key: "calificacion", title: "Calificación", channel: "Asesor", count: counts.qualifiedStage },
    { key: "conversion", title: "Conversión", channel: "Dentalink", count: counts.converted },
  ];
  return stages.map((stage) => ({ ...stage, share: ratio(stage.count, counts.total) }));
}
