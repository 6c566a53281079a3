import { Form, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/field";
import { cn } from "~/lib/cn";
import { periodPresetLabels } from "../analytics-options";
import type { PeriodView } from "../analytics-dto";

/**
 * The period of the Overview and Analytics (ADR 026): links for 7/30/90 days and a GET form for a custom from–to,
 * all in the URL, so they work before hydration, can be shared, and the back button returns to the last period.
 */
export function PeriodPicker({ period, tab }: { period: PeriodView; tab: "overview" | "analytics" }) {
  const base = tab === "analytics" ? "/funnel?tab=analytics&" : "/funnel?";
  return (
    <section aria-labelledby="periodo" className="rounded-2xl border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="periodo" className="text-lg font-semibold">
          Período
        </h2>
        <p className="text-sm text-slate-700" data-testid="period-label">
          {period.label} · {period.days === 1 ? "1 día" : `${period.days} días`}
        </p>
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <ul className="flex flex-wrap gap-2" aria-label="Períodos predefinidos">
          {(["7", "30", "90"] as const).map((kind) => (
            <li key={kind}>
              <Link
                to={`${base}period=${kind}`}
                aria-current={period.kind === kind ? "true" : undefined}
                className={cn(
                  "inline-flex rounded-full border px-3 py-1.5 text-sm font-medium",
                  period.kind === kind
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-slate-300 bg-white text-ink hover:bg-slate-50",
                )}
              >
                {periodPresetLabels[kind]}
              </Link>
            </li>
          ))}
        </ul>
        <Form
          method="get"
          action="/funnel"
          className="flex flex-wrap items-end gap-2"
          aria-label="Período personalizado"
        >
          {tab === "analytics" && <input type="hidden" name="tab" value="analytics" />}
          <input type="hidden" name="period" value="custom" />
          <Field label="Desde" className="w-40">
            {(props) => <Input {...props} type="date" name="from" defaultValue={period.from} required />}
          </Field>
          <Field label="Hasta" className="w-40">
            {(props) => <Input {...props} type="date" name="to" defaultValue={period.to} required />}
          </Field>
          <button type="submit" className={buttonClass("secondary")}>
            Aplicar período
          </button>
        </Form>
      </div>
      {period.error && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          {period.error} Se muestran los {period.days} días predeterminados.
        </p>
      )}
    </section>
  );
}
