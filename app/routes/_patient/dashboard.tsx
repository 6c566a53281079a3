import { MailWarning } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/dashboard";
import { getDb } from "~/db/client.server";
import { resendVerification } from "~/features/auth/auth-service.server";
import {
  AppointmentCounts,
  NextAppointmentCard,
  ProfileCompletenessCard,
  Shortcuts,
} from "~/features/patient-dashboard/components/dashboard-sections";
import { ChatInlineCard } from "~/features/chat/components/chat-launcher";
import { PendingFormsNotice } from "~/features/forms/components/pending-forms-notice";
import { chatWidgetConfig } from "~/features/chat/chat-widget-config.server";
import { patientDashboard } from "~/features/patient-dashboard/dashboard-service.server";
import { requireUser } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [{ title: "Mi Portal | Río Clínica" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const dashboard = await patientDashboard(await getDb(), user.id);
  return {
    firstName: user.firstName,
    emailVerified: user.emailVerified,
    email: user.email,
    chat: chatWidgetConfig(user.id),
    ...dashboard,
  };
}

/** Sends the verification e-mail again (rate-limited per IP and per account). */
export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  if (user.emailVerified) return data({ resent: false, message: "Tu correo ya está confirmado." });
  const outcome = await resendVerification(args.request, user.email);
  if (outcome === "rate-limited") {
    return data(
      { resent: false, message: "Ya te enviamos varios correos. Espera un rato antes de pedir otro." },
      { status: 429 },
    );
  }
  return data({ resent: true, message: `Te enviamos un nuevo enlace a ${user.email}.` });
}

export default function PatientDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      {!loaderData.emailVerified && (
        <div
          role="status"
          className="mb-8 flex flex-wrap items-center gap-4 rounded-xl bg-amber-50 p-4 text-amber-900 ring-1 ring-amber-200"
        >
          <MailWarning aria-hidden className="size-6 shrink-0" />
          <p className="flex-1">
            Confirma tu correo <strong>{loaderData.email}</strong> con el enlace que te enviamos. Hasta
            entonces no podrás agendar citas ni ver tus documentos clínicos.
            {actionData && <span className="mt-1 block font-medium">{actionData.message}</span>}
          </p>
          <Form method="post">
            <button
              type="submit"
              disabled={busy}
              className="rounded-lg border border-amber-400 bg-white px-4 py-2 text-sm font-semibold hover:bg-amber-100 disabled:opacity-60"
            >
              {busy ? "Enviando..." : "Reenviar correo"}
            </button>
          </Form>
        </div>
      )}
      <PendingFormsNotice count={loaderData.pendingForms} />
      <h1 className="text-3xl font-bold">Hola, {loaderData.firstName}</h1>
      <p className="mt-2 text-slate-600">
        Bienvenido a tu portal de paciente. Esto es lo más importante para hoy.
      </p>
      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <NextAppointmentCard appointment={loaderData.nextAppointment} />
        <AppointmentCounts upcoming={loaderData.counts.upcoming} history={loaderData.counts.history} />
      </div>
      <h2 className="mt-10 mb-4 text-xl font-semibold">Accesos rápidos</h2>
      <Shortcuts />
      <div className="mt-10">
        <ProfileCompletenessCard completeness={loaderData.completeness} />
      </div>
      <div className="mt-10">
        <ChatInlineCard config={loaderData.chat} />
      </div>
    </div>
  );
}
