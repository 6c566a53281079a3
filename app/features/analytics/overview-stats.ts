import { pointChange, relativeChange } from "~/domain/analytics-period";
import type { FunnelStage, PeriodFigures, StatCard } from "./analytics-dto";
import { formatCount, formatPercent, formatResponseMinutes, ratio } from "./funnel-stats";

/**
 * The Overview's six cards and four-stage funnel for a period (ADR 026), each card with its change
 * against the previous period when `previous` is given. Pure.
 */
export function overviewCards(current: PeriodFigures, previous: PeriodFigures | null): StatCard[] {
  const withChange = (card: StatCard, change: StatCard["change"]): StatCard =>
    previous ? { ...card, change } : card;
  // A period without leads has no conversion rate (0/0): no change to show rather than "−10,0 pp".
  const currentRate = current.total > 0 ? ratio(current.converted, current.total) : null;
  const previousRate = previous && previous.total > 0 ? ratio(previous.converted, previous.total) : null;
  return [
    withChange(
      {
        key: "total",
        label: "Total Leads",
        value: formatCount(current.total),
        hint: "Leads captados en el período",
      },
      relativeChange(current.total, previous?.total ?? null),
    ),
    withChange(
      {
        key: "hot",
        label: "Leads Calientes",
        value: formatCount(current.hot),
        hint: "Puntaje de 70 o más",
      },
      relativeChange(current.hot, previous?.hot ?? null),
    ),
    withChange(
      {
        key: "converted",
        label: "Conversiones",
        value: formatCount(current.converted),
        hint: "Leads del período en estado convertido",
      },
      relativeChange(current.converted, previous?.converted ?? null),
    ),
    withChange(
      {
        key: "rate",
        label: "Tasa Conversión",
        value: formatPercent(ratio(current.converted, current.total)),
        hint: "Conversiones sobre los leads del período",
      },
      pointChange(currentRate, previousRate),
    ),
    withChange(
      {
        key: "response",
        label: "Tiempo Respuesta",
        value: formatResponseMinutes(current.medianResponseMinutes),
        hint: "Mediana desde la captura hasta el primer contacto",
        lowerIsBetter: true,
      },
      relativeChange(current.medianResponseMinutes, previous?.medianResponseMinutes ?? null),
    ),
    withChange(
      {
        key: "whatsapp",
        label: "WhatsApp",
        value: formatCount(current.whatsapp),
        hint: "Leads llegados por WhatsApp",
      },
      relativeChange(current.whatsapp, previous?.whatsapp ?? null),
    ),
  ];
}

export function overviewStages(figures: PeriodFigures): FunnelStage[] {
  const stages = [
    { key: "captura", title: "Captura", channel: "Landing Page", count: figures.total },
    { key: "contacto", title: "Contacto", channel: "WhatsApp", count: figures.contactedStage },
    { key: "calificacion", title: "Calificación", channel: "Asesor", count: figures.qualifiedStage },
    { key: "conversion", title: "Conversión", channel: "Dentalink", count: figures.converted },
  ];
  return stages.map((stage) => ({ ...stage, share: ratio(stage.count, figures.total) }));
}
