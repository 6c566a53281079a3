import { data, redirect } from "react-router";
import type { Route } from "./+types/analytics-settings";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import { SETTINGS_INTENT, settingsFromForm } from "~/features/analytics/analytics-options";
import {
  loadAnalyticsSettings,
  resetAnalyticsSettings,
  saveAnalyticsSettings,
} from "~/features/analytics/analytics-service.server";
import {
  AnalyticsSettingsPageForm,
  type SettingsActionData,
} from "~/features/analytics/components/analytics-settings-form";
import { DashboardHeader } from "~/components/dashboard-header";
import { actionFailure, actionSuccess, type FieldErrors } from "~/lib/base/action-result";
import { clientIp } from "~/lib/client-ip.server";
import { requireRole } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [{ title: "Configurar Analytics | Río Clínica" }];

/** 'Configurar Analytics' without JavaScript: the same settings as the dialog, on a page (staff only). */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  return { settings: await loadAnalyticsSettings(await getDb(), user.id) };
}

const SAVED = "Ajustes de Analytics guardados.";
const RESET = "Ajustes de Analytics restablecidos.";

/** Saves or resets the signed-in user's own settings; nobody else's can be named. */
export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  let form: FormData;
  try {
    form = await args.request.formData();
  } catch {
    throw data("La solicitud no es válida. Revisa los datos e intenta nuevamente.", { status: 400 });
  }
  const actor = { id: user.id, roles: user.roles, ip: clientIp(args.request) };
  const db = await getDb();
  const viaDialog = form.get("via") === "dialog";
  const done = (settings: Awaited<ReturnType<typeof resetAnalyticsSettings>>, message: string) =>
    viaDialog
      ? data<SettingsActionData>(actionSuccess({ settings }, message))
      : redirect("/funnel?tab=analytics", 303);

  if (form.get("intent") === SETTINGS_INTENT.reset)
    return done(await resetAnalyticsSettings(db, actor), RESET);
  if (form.get("intent") !== SETTINGS_INTENT.save) {
    return data<SettingsActionData>(actionFailure("VALIDATION", "La acción no es válida."), { status: 400 });
  }
  const parsed = settingsFromForm(form);
  if (!parsed.success) {
    const fieldErrors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      (fieldErrors[field] ??= []).push(issue.message);
    }
    return data<SettingsActionData>(
      actionFailure("VALIDATION", "Revisa los ajustes marcados.", fieldErrors),
      { status: 400 },
    );
  }
  return done(await saveAnalyticsSettings(db, actor, parsed.data), SAVED);
}

export default function AnalyticsSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <DashboardHeader
        title="Configurar Analytics"
        description="Período predeterminado, comparación y gráficos visibles. Se guardan en tu cuenta."
        back={{ to: "/funnel?tab=analytics", label: "Volver a Analytics" }}
      />
      <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6">
        <AnalyticsSettingsPageForm
          settings={loaderData.settings}
          result={actionData as SettingsActionData | undefined}
        />
      </div>
    </div>
  );
}
