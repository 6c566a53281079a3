import { data } from "react-router";
import type { Route } from "./+types/test-dashboard";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import { whatsAppCardData } from "~/features/messaging/whatsapp-log-service.server";
import { TestDashboard } from "~/features/staff/components/test-dashboard";
import type { LeadTestActionData } from "~/features/staff/lead-test-dto";
import { leadTestActionSchema } from "~/features/staff/lead-test-schema";
import { scoreScenario, scoreTestLead } from "~/features/staff/lead-test-service.server";
import { actionSuccess } from "~/lib/base/action-result";
import { validationResult } from "~/lib/base/errors.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard de Pruebas | Río Clínica" }];

// Staff only: it sends WhatsApp messages. The WhatsApp card's API log is read from the database (it survives a reload).
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, STAFF_ROLES);
  return { whatsApp: await whatsAppCardData(await getDb()) };
}

/** Scores a predefined scenario or the custom lead on the server with the production rules; stores nothing. */
export async function action(args: Route.ActionArgs) {
  await requireRole(args, STAFF_ROLES);
  const parsed = leadTestActionSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  const input = parsed.data;
  const result =
    input.intent === "scenario"
      ? scoreScenario(input.scenario)
      : scoreTestLead(input, { label: "Prueba personalizada", expectedScore: null });
  return data<LeadTestActionData>(actionSuccess({ result }));
}

export default function TestDashboardPage({ loaderData }: Route.ComponentProps) {
  return <TestDashboard whatsApp={loaderData.whatsApp} />;
}
