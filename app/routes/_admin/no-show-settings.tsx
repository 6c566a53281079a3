import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/no-show-settings";
import { ActionMessage } from "~/components/admin-ui";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/field";
import { getDb } from "~/db/client.server";
import { MAX_NO_SHOW_THRESHOLD, MIN_NO_SHOW_THRESHOLD, NO_SHOW_WINDOW_MONTHS } from "~/domain/no-shows";
import { ADMIN_ROLES } from "~/domain/roles";
import { noShowRuleFromForm } from "~/features/no-shows/no-show-schema";
import { noShowSettingsView, saveNoShowRule } from "~/features/no-shows/no-show-service.server";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { clientIp } from "~/lib/client-ip.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Inasistencias | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

/** /admin/inasistencias: the clinic's rule for repeated no-shows (clinic_settings 'no_shows', ADR 042). */
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, ADMIN_ROLES);
  return noShowSettingsView(await getDb(), webpayClient() !== null);
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const form = await readForm(args.request);
  const body = new FormData();
  for (const [key, value] of Object.entries(form)) body.set(key, value);
  const parsed = noShowRuleFromForm(body);
  if (!parsed.success) return validationResult(parsed.error);
  try {
    await saveNoShowRule(
      await getDb(),
      { id: user.id, roles: user.roles, ip: clientIp(args.request) },
      parsed.data,
      { paymentsOn: webpayClient() !== null },
    );
    return data<ActionResult>(actionSuccess(undefined, "Regla de inasistencias guardada."));
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function NoShowSettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const result = actionData as ActionResult | undefined;
  const thresholdError = result && !result.ok ? result.fieldErrors?.threshold?.[0] : undefined;
  return (
    <>
      <h1 className="text-3xl font-bold">Inasistencias</h1>
      <p className="mt-2 max-w-2xl text-slate-700">
        Qué pasa con la reserva en línea de un paciente que no asistió a varias citas en los últimos{" "}
        {NO_SHOW_WINDOW_MONTHS} meses.{" "}
        {loaderData.paymentsOn
          ? "Con el pago en línea activo, se le pide un abono al agendar."
          : "Sin pago en línea, no puede agendar en línea y se le pide llamar a la clínica."}
      </p>
      <div className="mt-6 max-w-xl">
        <ActionMessage result={result} />
        <Form method="post" className="space-y-5 rounded-xl bg-white p-5 ring-1 ring-slate-200">
          <label className="flex items-start gap-3">
            <input
              type="checkbox"
              name="enabled"
              defaultChecked={loaderData.enabled}
              className="mt-1 size-4 accent-brand-700"
            />
            <span>
              <span className="font-medium">Aplicar la regla de inasistencias</span>
              <span className="block text-sm text-slate-600">
                Si la desactivas, las inasistencias se siguen registrando, pero no cambian la reserva en
                línea.
              </span>
            </span>
          </label>
          <Field
            label="Número de inasistencias en 12 meses"
            hint={`Desde cuántas inasistencias se aplica la regla (entre ${MIN_NO_SHOW_THRESHOLD} y ${MAX_NO_SHOW_THRESHOLD}).`}
            error={thresholdError}
          >
            {(props) => (
              <Input
                {...props}
                type="number"
                name="threshold"
                inputMode="numeric"
                min={MIN_NO_SHOW_THRESHOLD}
                max={MAX_NO_SHOW_THRESHOLD}
                required
                defaultValue={loaderData.threshold}
                className="max-w-32"
              />
            )}
          </Field>
          <Button type="submit" disabled={busy}>
            Guardar
          </Button>
        </Form>
      </div>
    </>
  );
}
