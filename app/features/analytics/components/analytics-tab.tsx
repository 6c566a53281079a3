import { Download, Settings2 } from "lucide-react";
import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import type { AnalyticsTabData, ChartData } from "../analytics-dto";
import { chartTitles } from "../analytics-options";
import { AnalyticsChartSvg, SeriesSwatch } from "./analytics-chart";
import {
  AnalyticsSettingsFetcherForm,
  SETTINGS_ACTION,
  type SettingsActionData,
} from "./analytics-settings-form";
import { PeriodPicker } from "./period-picker";

const integer = new Intl.NumberFormat("es-CL", { maximumFractionDigits: 0 });

function ChartTable({ chart }: { chart: ChartData }) {
  return (
    <div
      className="max-h-80 overflow-auto rounded-lg border border-slate-200"
      // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be reachable by keyboard
      tabIndex={0}
      role="region"
      aria-label={`Tabla de datos: ${chart.title}`}
    >
      <table className="w-full text-left text-sm" data-testid={`chart-table-${chart.key}`}>
        <caption className="sr-only">
          {chart.title}. {chart.summary}
        </caption>
        <thead className="sticky top-0 bg-slate-100">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              {chart.categoryLabel}
            </th>
            {chart.series.map((item) => (
              <th key={item.key} scope="col" className="px-3 py-2 text-right font-semibold">
                {item.label}
              </th>
            ))}
            {chart.extras.map((extra) => (
              <th key={extra.label} scope="col" className="px-3 py-2 text-right font-semibold">
                {extra.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {chart.rows.map((row, index) => (
            <tr key={row.key} className="border-t border-slate-200">
              <th scope="row" className="px-3 py-1.5 font-normal whitespace-nowrap">
                {row.label}
              </th>
              {row.values.map((value, position) => (
                <td key={chart.series[position]!.key} className="px-3 py-1.5 text-right tabular-nums">
                  {integer.format(value)}
                </td>
              ))}
              {chart.extras.map((extra) => (
                <td key={extra.label} className="px-3 py-1.5 text-right tabular-nums">
                  {extra.values[index]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ChartCard({ chart, periodQuery }: { chart: ChartData; periodQuery: string }) {
  const headingId = `grafico-${chart.key}`;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid={`chart-${chart.key}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={headingId} className="text-lg font-semibold">
            {chart.title}
          </h3>
          <p className="mt-1 text-sm text-slate-700">{chart.summary}</p>
        </div>
        <a
          href={`/funnel/analytics.csv?chart=${chart.key}&${periodQuery}`}
          download
          className={buttonClass("secondary", "px-3 py-1.5 text-sm")}
        >
          <Download aria-hidden className="size-4" />
          Descargar CSV<span className="sr-only">: {chart.title}</span>
        </a>
      </div>
      {chart.series.length > 1 && (
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Leyenda">
          {chart.series.map((item, index) => (
            <li key={item.key} className="flex items-center gap-1.5">
              <SeriesSwatch chart={chart.key} index={index} />
              {item.label}
            </li>
          ))}
        </ul>
      )}
      <div
        className={cn(
          "mt-4 grid gap-4",
          // A wide table goes under its chart; a narrow one beside it.
          1 + chart.series.length + chart.extras.length <= 3 && "lg:grid-cols-[3fr_2fr]",
        )}
      >
        <AnalyticsChartSvg chart={chart} />
        <ChartTable chart={chart} />
      </div>
    </section>
  );
}

/** The Analytics tab (ADR 026): a period, the charts the user shows, 'Configurar Analytics'. */
export function AnalyticsTab({ data }: { data: AnalyticsTabData }) {
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const fetcher = useFetcher<SettingsActionData>({ key: "analytics-settings" });
  const saved = fetcher.state === "idle" && fetcher.data?.ok ? fetcher.data : null;
  // Closing once per saved answer: state adjusted while rendering (React's "storing information from previous
  // renders"), no effect needed.
  const [handled, setHandled] = useState<typeof saved>(null);
  if (saved && saved !== handled) {
    setHandled(saved);
    setOpen(false);
    setNotice(saved.message ?? null);
  }

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">Analytics</h2>
        <Dialog open={open} onOpenChange={setOpen}>
          {/* A link to the settings page without JavaScript; with it, the dialog opens in place. */}
          <Link
            to={SETTINGS_ACTION}
            className={buttonClass("secondary")}
            aria-haspopup="dialog"
            onClick={(event) => {
              event.preventDefault();
              setNotice(null);
              setOpen(true);
            }}
          >
            <Settings2 aria-hidden className="size-4" />
            Configurar Analytics
          </Link>
          <DialogContent
            title="Configurar Analytics"
            description="Se guardan en tu cuenta y se aplican la próxima vez que abras el Overview o Analytics."
            testId="analytics-settings"
          >
            <AnalyticsSettingsFetcherForm
              settings={data.settings}
              fetcher={fetcher}
              formKey={JSON.stringify(data.settings)}
            />
          </DialogContent>
        </Dialog>
      </div>
      <p role="status" className="text-sm font-medium text-emerald-800">
        {notice}
      </p>
      <PeriodPicker period={data.period} tab="analytics" />
      {data.charts.length === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white p-6 text-slate-700">
          Ocultaste todos los gráficos. Usa «Configurar Analytics» para mostrarlos de nuevo.
        </p>
      ) : (
        data.charts.map((chart) => (
          <ChartCard key={chart.key} chart={chart} periodQuery={data.period.query} />
        ))
      )}
      {data.hidden.length > 0 && (
        <p className="text-sm text-slate-700">
          Gráficos ocultos: {data.hidden.map((key) => chartTitles[key]).join(", ")}.
        </p>
      )}
    </div>
  );
}
