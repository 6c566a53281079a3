import type { Database } from "~/db/client.server";
import { periodLabel, type ReportPeriod } from "~/domain/analytics-period";
import { logger } from "~/lib/base/logger.server";
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
import type { AnalyticsTabData, ChartData, FunnelStage, PeriodView, StatCard } from "./analytics-dto";
import { periodBreakdown, periodFigures, type PeriodBreakdown } from "./analytics-repository.server";
import { engagementFigures, type EngagementFigures } from "./engagement-repository.server";
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

interface ChartInputs {
  leads: PeriodBreakdown | null;
  engagement: EngagementFigures | null;
}

function buildChart(key: ChartKey, period: ReportPeriod, inputs: ChartInputs): ChartData {
  const text = periodText(period);
  if (key === "engagement") {
    if (!inputs.engagement) throw new Error("engagement figures not loaded");
    return engagementChart(inputs.engagement, text);
  }
  const data = inputs.leads;
  if (!data) throw new Error("lead breakdown not loaded");
  switch (key) {
    case "by-source":
      return leadsBySourceChart(period, data.daily, text);
    case "by-level":
      return leadsByLevelChart(period, data.daily, text);
    case "funnel":
      return funnelChart(stageCounts(data.byTreatmentAndStatus), text);
    case "response-time":
      return responseTimeChart(data.responseBuckets, text);
    case "treatment":
      return treatmentChart(treatmentTotals(data.byTreatmentAndStatus), text);
    case "score":
      return scoreChart(data.scoreBuckets, text);
  }
}

/** The inputs the charts `keys` need: the leads' pass, the appointments' figures, or both. */
async function chartInputs(
  db: Database,
  keys: readonly ChartKey[],
  period: ReportPeriod,
  now: Date,
): Promise<ChartInputs> {
  const needsLeads = keys.some((key) => key !== "engagement");
  const needsEngagement = keys.includes("engagement");
  const [leads, engagement] = await Promise.all([
    needsLeads ? periodBreakdown(db, period) : null,
    needsEngagement ? engagementFigures(db, period, now) : null,
  ]);
  return { leads, engagement };
}

/** One chart's data (the CSV download). */
export async function loadChart(
  db: Database,
  key: ChartKey,
  period: ReportPeriod,
  now = new Date(),
): Promise<ChartData> {
  return buildChart(key, period, await chartInputs(db, [key], period, now));
}

/** The Analytics tab: the charts the user shows, for the period, from one pass over the period's leads. */
export async function loadAnalyticsTab(
  db: Database,
  selection: PeriodSelection,
  now = new Date(),
): Promise<AnalyticsTabData> {
  const { period, settings, view } = selection;
  const shown = chartKeys.filter((key) => !settings.hiddenCharts.includes(key));
  const inputs = shown.length > 0 ? await chartInputs(db, shown, period, now) : null;
  const charts = inputs ? shown.map((key) => buildChart(key, period, inputs)) : [];
  return { period: view, settings, charts, hidden: settings.hiddenCharts };
}
