import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/reminder-settings";
import { ActionMessage, AdminPanel } from "~/components/admin-ui";
import { Button } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { QUIET_FROM, QUIET_UNTIL, reminderStepLabels, reminderSteps } from "~/domain/reminder-sequence";
import { reminderSequenceFromForm } from "~/features/reminders/reminder-settings-schema";
import {
  reminderSequenceSettings,
  saveReminderSequence,
} from "~/features/reminders/reminder-settings-service.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { clientIp } from "~/lib/client-ip.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Recordatorios | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

// The clinic's reminder sequence (ADR 039): admins only, also in the action (an asesor or a patient gets 403).
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, ADMIN_ROLES);
  return { settings: await reminderSequenceSettings(await getDb()) };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const form = await readForm(args.request);
  try {
    await saveReminderSequence(
      await getDb(),
      { id: user.id, roles: user.roles, ip: clientIp(args.request) },
      reminderSequenceFromForm(form),
    );
    return data<ActionResult>(actionSuccess(undefined, "Guardamos la secuencia de recordatorios."));
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function ReminderSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <h1 className="text-3xl font-bold">Recordatorios</h1>
      <p className="mt-2 max-w-3xl text-slate-700">
        Los mensajes de WhatsApp que recibe cada paciente antes de su cita (con su consentimiento). Nunca se
        envían entre las {QUIET_FROM} y las {QUIET_UNTIL}: un mensaje que caería en ese horario sale en el
        borde más cercano que siga antes de la cita.
      </p>
      <div className="mt-6">
        <ActionMessage result={actionData} />
      </div>
      <AdminPanel id="secuencia" title="Secuencia">
        <Form method="post" className="mt-4 space-y-4">
          <fieldset className="space-y-4">
            <legend className="sr-only">Pasos de la secuencia</legend>
            {reminderSteps.map((step) => (
              <div key={step} className="flex items-start gap-3">
                <input
                  type="checkbox"
                  id={`step-${step}`}
                  name={step}
                  defaultChecked={settings[step]}
                  key={`${step}-${settings[step]}`}
                  aria-describedby={`step-${step}-help`}
                  className="mt-1 size-5 accent-brand-700"
                />
                <div>
                  <label htmlFor={`step-${step}`} className="font-semibold">
                    {reminderStepLabels[step].title}
                  </label>
                  <p id={`step-${step}-help`} className="text-sm text-slate-700">
                    {reminderStepLabels[step].description}
                  </p>
                </div>
              </div>
            ))}
          </fieldset>
          <Button type="submit" disabled={busy}>
            {busy ? "Guardando..." : "Guardar"}
          </Button>
        </Form>
      </AdminPanel>
    </>
  );
}
