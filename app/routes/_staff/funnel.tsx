import { data } from "react-router";
import type { Route } from "./+types/funnel";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import { FunnelDashboard, type FunnelTab } from "~/features/staff/components/funnel-dashboard";
import type { LeadPanelActionResult } from "~/features/staff/funnel-dto";
import { applyLeadIntent, loadLeadCounts, loadLeadPanel } from "~/features/staff/funnel-service.server";
import { funnelStages, statCards } from "~/features/staff/funnel-stats";
import { leadPanelActionSchema, parseLeadFilters } from "~/features/staff/lead-panel-schema";
import { clientIp } from "~/lib/client-ip.server";
import { clinicFacts } from "~/lib/env.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";
import { actionSuccess } from "~/lib/action-result";
import { validationResult } from "~/lib/errors.server";

export const meta: Route.MetaFunction = () => [{ title: "Funnel Dashboard | Río Clínica" }];

function tabOf(params: URLSearchParams): FunnelTab {
  const filtering = params.has("q") || params.has("level") || params.has("status");
  return params.get("tab") === "leads" || filtering ? "leads" : "overview";
}

// DESIGN decision 10: staff only.
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, STAFF_ROLES);
  const params = new URL(args.request.url).searchParams;
  const tab = tabOf(params);
  const db = await getDb();
  const counts = await loadLeadCounts(db);
  const panel =
    tab === "leads" ? await loadLeadPanel(db, parseLeadFilters(params), clinicFacts().shortName) : null;
  return {
    tab,
    stats: statCards(counts),
    stages: funnelStages(counts),
    counters: {
      total: counts.total,
      hot: counts.hot,
      warm: counts.warm,
      cold: counts.cold,
      new: counts.new,
      converted: counts.converted,
    },
    panel,
  };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const parsed = leadPanelActionSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  const { leadId, intent } = parsed.data;
  const outcome = await applyLeadIntent(await getDb(), {
    leadId,
    intent,
    actor: { id: user.id, roles: user.roles, ip: clientIp(args.request) },
  });
  if (!outcome) throw data({ message: "No encontramos ese lead." }, { status: 404 });
  return data<LeadPanelActionResult>(actionSuccess({ leadId, status: outcome.status }, outcome.message));
}

export default function FunnelPage({ loaderData }: Route.ComponentProps) {
  return (
    <FunnelDashboard
      tab={loaderData.tab}
      stats={loaderData.stats}
      stages={loaderData.stages}
      counters={loaderData.counters}
      panel={loaderData.panel}
    />
  );
}
