import type { Database } from "~/db/client.server";
import { periodLabel, type ReportPeriod } from "~/domain/analytics-period";
import type { FunnelStage, StatCard } from "~/features/staff/funnel-dto";
import { logger } from "~/lib/logger.server";
import {
  analyticsSettingsSchema,
  chartKeys,
  DEFAULT_ANALYTICS_SETTINGS,
  periodFromParams,
  periodQuery,
  type AnalyticsSettings,
  type ChartKey,
} from "./analytics-options";
import {
  funnelChart,
  leadsByLevelChart,
  leadsBySourceChart,
  responseTimeChart,
  scoreChart,
  treatmentChart,
} from "./analytics-charts";
import type { AnalyticsTabData, ChartData, PeriodView } from "./analytics-dto";
import {
  dailyLeadCounts,
  periodFigures,
  responseTimeBuckets,
  scoreBuckets,
  treatmentCounts,
} from "./analytics-repository.server";
import {
  deleteAnalyticsSettings,
  findAnalyticsSettings,
  upsertAnalyticsSettings,
  type SettingsActor,
} from "./analytics-settings-repository.server";
import { overviewCards, overviewStages } from "./overview-stats";

/** The user's Analytics settings; a stored value that no longer validates falls back to the defaults. */
export async function loadAnalyticsSettings(db: Database, userId: string): Promise<AnalyticsSettings> {
  const stored = await findAnalyticsSettings(db, userId);
  if (stored === null) return DEFAULT_ANALYTICS_SETTINGS;
  const parsed = analyticsSettingsSchema.safeParse(stored);
  if (!parsed.success) {
    logger.warn({ userId }, "stored analytics settings are invalid; using the defaults");
    return DEFAULT_ANALYTICS_SETTINGS;
  }
  return parsed.data;
}

/** Validated again here, whatever the caller did: only a valid value reaches the database. */
export async function saveAnalyticsSettings(
  db: Database,
  actor: SettingsActor,
  settings: AnalyticsSettings,
  now = new Date(),
): Promise<AnalyticsSettings> {
  const valid = analyticsSettingsSchema.parse(settings);
  await upsertAnalyticsSettings(db, actor, valid, now);
  return valid;
}

export async function resetAnalyticsSettings(db: Database, actor: SettingsActor, now = new Date()) {
  await deleteAnalyticsSettings(db, actor, now);
  return DEFAULT_ANALYTICS_SETTINGS;
}

export interface PeriodSelection {
  period: ReportPeriod;
  view: PeriodView;
  settings: AnalyticsSettings;
}

/** The period of the URL (or the user's default) with the user's settings. */
export async function selectPeriod(
  db: Database,
  userId: string,
  params: URLSearchParams,
  now = new Date(),
): Promise<PeriodSelection> {
  const settings = await loadAnalyticsSettings(db, userId);
  const { period, error } = periodFromParams(params, settings.defaultPeriod, now);
  return {
    period,
    settings,
    view: {
      kind: period.kind,
      from: period.from,
      to: period.to,
      days: period.days,
      label: periodLabel(period),
      previousLabel: periodLabel(period.previous),
      query: periodQuery(period),
      error,
    },
  };
}

/** The Overview's cards and funnel for the period, compared with the previous one when the user wants it. */
export async function loadOverview(
  db: Database,
  selection: PeriodSelection,
): Promise<{ stats: StatCard[]; stages: FunnelStage[] }> {
  const { period, settings } = selection;
  const figures = await periodFigures(db, period, settings.comparison ? period.previous : null);
  return { stats: overviewCards(figures.current, figures.previous), stages: overviewStages(figures.current) };
}

const periodText = (period: ReportPeriod) =>
  period.kind === "custom" ? `entre el ${periodLabel(period)}` : `de los últimos ${period.days} días`;

/** One chart's data (each chart reads only what it needs). */
export async function loadChart(db: Database, key: ChartKey, period: ReportPeriod): Promise<ChartData> {
  const text = periodText(period);
  switch (key) {
    case "by-source":
      return leadsBySourceChart(period, await dailyLeadCounts(db, period), text);
    case "by-level":
      return leadsByLevelChart(period, await dailyLeadCounts(db, period), text);
    case "funnel":
      return funnelChart((await periodFigures(db, period, null)).current, text);
    case "response-time":
      return responseTimeChart(await responseTimeBuckets(db, period), text);
    case "treatment":
      return treatmentChart(await treatmentCounts(db, period), text);
    case "score":
      return scoreChart(await scoreBuckets(db, period), text);
  }
}

/** The Analytics tab: the charts the user shows, for the period. */
export async function loadAnalyticsTab(db: Database, selection: PeriodSelection): Promise<AnalyticsTabData> {
  const { period, settings, view } = selection;
  const shown = chartKeys.filter((key) => !settings.hiddenCharts.includes(key));
  const text = periodText(period);
  // The two per-day charts share one query.
  const needsDaily = shown.includes("by-source") || shown.includes("by-level");
  const daily = needsDaily ? await dailyLeadCounts(db, period) : [];
  const charts: ChartData[] = [];
  for (const key of shown) {
    if (key === "by-source") charts.push(leadsBySourceChart(period, daily, text));
    else if (key === "by-level") charts.push(leadsByLevelChart(period, daily, text));
    else charts.push(await loadChart(db, key, period));
  }
  return { period: view, settings, charts, hidden: settings.hiddenCharts };
}
