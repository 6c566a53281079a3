import { useFetcher, Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, Select } from "~/components/ui/field";
import type { ActionResult } from "~/lib/base/action-result";
import {
  chartKeys,
  chartTitles,
  DEFAULT_ANALYTICS_SETTINGS,
  periodPresetLabels,
  SETTINGS_INTENT,
  type AnalyticsSettings,
} from "../analytics-options";

export const SETTINGS_ACTION = "/funnel/analytics/ajustes";

export type SettingsActionData = ActionResult<{ settings: AnalyticsSettings }>;

/**
 * The settings of the Analytics tab ('Configurar Analytics', DESIGN decision 9): default period, comparison, which
 * charts are shown. Posted to its own route: with JavaScript through a fetcher (the dialog), without it as a plain
 * form on /funnel/analytics/ajustes.
 */
export function AnalyticsSettingsFields({
  settings,
  result,
}: {
  settings: AnalyticsSettings;
  result?: SettingsActionData;
}) {
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  const firstError = (name: string) => errors?.[name]?.[0];
  return (
    <div className="space-y-5">
      <Field label="Período predeterminado" error={firstError("defaultPeriod")}>
        {(props) => (
          <Select {...props} name="defaultPeriod" defaultValue={settings.defaultPeriod}>
            {(["7", "30", "90"] as const).map((value) => (
              <option key={value} value={value}>
                {periodPresetLabels[value]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          name="comparison"
          defaultChecked={settings.comparison}
          className="mt-1 size-4 accent-brand-700"
        />
        <span>
          <span className="block font-medium">Comparar con el período anterior</span>
          <span className="block text-sm text-slate-700">
            Cada indicador del Overview muestra su cambio frente al período anterior de igual duración.
          </span>
        </span>
      </label>
      <fieldset aria-describedby={firstError("hiddenCharts") ? "ajustes-graficos-error" : undefined}>
        <legend className="font-medium">Gráficos visibles</legend>
        <ul className="mt-2 space-y-2">
          {chartKeys.map((key) => (
            <li key={key}>
              <label className="flex items-center gap-3">
                <input
                  type="checkbox"
                  name="chart"
                  value={key}
                  defaultChecked={!settings.hiddenCharts.includes(key)}
                  className="size-4 accent-brand-700"
                />
                {chartTitles[key]}
              </label>
            </li>
          ))}
        </ul>
        {firstError("hiddenCharts") && (
          <p id="ajustes-graficos-error" className="mt-2 text-sm font-medium text-red-700">
            {firstError("hiddenCharts")}
          </p>
        )}
      </fieldset>
      {result && !result.ok && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {result.message}
        </p>
      )}
    </div>
  );
}

function Buttons({ busy }: { busy?: boolean }) {
  return (
    <div className="flex flex-wrap justify-end gap-3">
      <Button type="submit" name="intent" value={SETTINGS_INTENT.reset} variant="secondary" disabled={busy}>
        Restablecer
      </Button>
      <Button type="submit" name="intent" value={SETTINGS_INTENT.save} disabled={busy}>
        Guardar
      </Button>
    </div>
  );
}

/** The dialog's form: posts through a fetcher and tells its parent when the settings were saved. */
export function AnalyticsSettingsFetcherForm({
  settings,
  fetcher,
  formKey,
}: {
  settings: AnalyticsSettings;
  fetcher: ReturnType<typeof useFetcher<SettingsActionData>>;
  formKey: string;
}) {
  return (
    <fetcher.Form method="post" action={SETTINGS_ACTION} className="mt-5 space-y-6" key={formKey}>
      <input type="hidden" name="via" value="dialog" />
      <AnalyticsSettingsFields settings={settings} result={fetcher.data} />
      <Buttons busy={fetcher.state !== "idle"} />
    </fetcher.Form>
  );
}

/** The same form as a plain page form (no JavaScript needed). */
export function AnalyticsSettingsPageForm({
  settings,
  result,
}: {
  settings: AnalyticsSettings;
  result?: SettingsActionData;
}) {
  return (
    <Form method="post" action={SETTINGS_ACTION} className="space-y-6">
      <AnalyticsSettingsFields settings={settings ?? DEFAULT_ANALYTICS_SETTINGS} result={result} />
      <Buttons />
    </Form>
  );
}
