import { z } from "zod";
import {
  DEFAULT_PERIOD_DAYS,
  MAX_PERIOD_DAYS,
  daysBetween,
  periodBetween,
  presetPeriod,
  type PeriodPreset,
  type ReportPeriod,
} from "~/domain/analytics-period";

/** The Analytics tab's charts, its settings and the period in the URL (ADR 026). Client-safe. */

export const chartKeys = [
  "by-source",
  "by-level",
  "funnel",
  "response-time",
  "treatment",
  "score",
  "engagement",
] as const;
export type ChartKey = (typeof chartKeys)[number];

export const chartTitles: Record<ChartKey, string> = {
  "by-source": "Leads por día según origen",
  "by-level": "Leads por día según nivel",
  funnel: "Conversión por etapa del embudo",
  "response-time": "Distribución del tiempo de respuesta",
  treatment: "Leads y conversión por tratamiento",
  score: "Distribución del puntaje",
  engagement: "Citas: confirmación, inasistencias, lista de espera y formularios",
};

export const periodPresetLabels: Record<"7" | "30" | "90", string> = {
  "7": "Últimos 7 días",
  "30": "Últimos 30 días",
  "90": "Últimos 90 días",
};

// ---------------------------------------------------------------------------------------------------------------
// Settings, stored per user as jsonb and validated on read and on write.

export const analyticsSettingsSchema = z
  .object({
    defaultPeriod: z.enum(["7", "30", "90"], {
      error: "Elige un período predeterminado de 7, 30 o 90 días.",
    }),
    comparison: z.boolean({ error: "Indica si quieres comparar con el período anterior." }),
    hiddenCharts: z
      .array(z.enum(chartKeys, { error: "Uno de los gráficos elegidos no existe." }))
      .max(chartKeys.length, { error: "Hay más gráficos ocultos que gráficos." })
      .refine((keys) => new Set(keys).size === keys.length, { error: "Un gráfico aparece repetido." }),
  })
  .strict();

export type AnalyticsSettings = z.infer<typeof analyticsSettingsSchema>;

export const DEFAULT_ANALYTICS_SETTINGS: AnalyticsSettings = {
  defaultPeriod: String(DEFAULT_PERIOD_DAYS) as AnalyticsSettings["defaultPeriod"],
  comparison: true,
  hiddenCharts: [],
};

export const SETTINGS_INTENT = { save: "save", reset: "reset" } as const;

/**
 * The settings form: a select for the period, a checkbox for the comparison, a checkbox per chart to show (a plain
 * form post works without JavaScript). Charts not ticked are the hidden ones.
 */
export function settingsFromForm(form: FormData): z.ZodSafeParseResult<AnalyticsSettings> {
  const shown = new Set(form.getAll("chart").map(String));
  const unknown = [...shown].filter((key) => !(chartKeys as readonly string[]).includes(key));
  return analyticsSettingsSchema.safeParse({
    defaultPeriod: form.get("defaultPeriod"),
    comparison: form.get("comparison") === "on",
    hiddenCharts: unknown.length > 0 ? unknown : chartKeys.filter((key) => !shown.has(key)),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The period in the URL: ?period=7|30|90, or ?period=custom&from=YYYY-MM-DD&to=YYYY-MM-DD.

const isoDate = z.iso.date({ error: "Usa fechas válidas (AAAA-MM-DD)." });

export const periodQuerySchema = z.discriminatedUnion(
  "period",
  [
    z.object({ period: z.enum(["7", "30", "90"]) }),
    z
      .object({
        period: z.literal("custom"),
        from: isoDate,
        to: isoDate,
      })
      .refine((value) => value.from <= value.to, {
        error: "La fecha «Desde» debe ser anterior o igual a «Hasta».",
        path: ["to"],
      })
      .refine((value) => value.from > value.to || daysBetween(value.from, value.to) <= MAX_PERIOD_DAYS, {
        error: `El período puede abarcar como máximo ${MAX_PERIOD_DAYS} días.`,
        path: ["to"],
      }),
  ],
  { error: "Elige un período de 7, 30 o 90 días, o uno personalizado." },
);

export interface PeriodChoice {
  period: ReportPeriod;
  /** Why the requested period was not used (the default is shown instead), or null. */
  error: string | null;
}

/** The period asked for in the URL; without one, the user's default; an invalid one falls back to it with an error. */
export function periodFromParams(
  params: URLSearchParams,
  defaultPeriod: AnalyticsSettings["defaultPeriod"],
  now: Date,
): PeriodChoice {
  const fallback = presetPeriod(Number(defaultPeriod) as PeriodPreset, now);
  const requested = params.get("period") ?? (params.has("from") || params.has("to") ? "custom" : null);
  if (requested === null) return { period: fallback, error: null };
  const parsed = periodQuerySchema.safeParse({
    period: requested,
    from: params.get("from") ?? undefined,
    to: params.get("to") ?? undefined,
  });
  if (!parsed.success) {
    return { period: fallback, error: parsed.error.issues[0]?.message ?? "El período no es válido." };
  }
  const value = parsed.data;
  return {
    period:
      value.period === "custom"
        ? periodBetween(value.from, value.to)
        : presetPeriod(Number(value.period) as PeriodPreset, now),
    error: null,
  };
}

/** The query string that selects this period (links, the CSV downloads). */
export function periodQuery(period: Pick<ReportPeriod, "kind" | "from" | "to">): string {
  return period.kind === "custom"
    ? `period=custom&from=${period.from}&to=${period.to}`
    : `period=${period.kind}`;
}
