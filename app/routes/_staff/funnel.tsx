import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/funnel";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import { dentalinkClient, dentalinkSettings } from "~/features/dentalink-sync/dentalink-settings.server";
import { loadSyncTab, runSync } from "~/features/dentalink-sync/dentalink-sync-service.server";
import type { SyncActionData } from "~/features/dentalink-sync/sync-dto";
import { SYNC_INTENT, SYNC_OVERALL_MESSAGE } from "~/features/dentalink-sync/sync-options";
import { syncActionSchema } from "~/features/dentalink-sync/sync-schema";
import { systemStatus } from "~/features/dentalink-sync/system-status.server";
import { FunnelDashboard, type FunnelTab } from "~/features/staff/components/funnel-dashboard";
import type { LeadPanelActionResult } from "~/features/staff/funnel-dto";
import { applyLeadIntent, loadLeadCounts } from "~/features/staff/funnel-service.server";
import { funnelStages, statCards } from "~/features/staff/funnel-stats";
import { loadLeadCounters, loadLeadPanel } from "~/features/staff/lead-list-service.server";
import {
  defaultLeadFilters,
  leadPanelActionSchema,
  parseLeadFilters,
} from "~/features/staff/lead-panel-schema";
import { clientIp } from "~/lib/client-ip.server";
import { clinicFacts } from "~/lib/env.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";
import { actionFailure, actionSuccess, zodFieldErrors } from "~/lib/action-result";
import { appErrorResult, validationResult } from "~/lib/errors.server";

export const meta: Route.MetaFunction = () => [{ title: "Funnel Dashboard | Río Clínica" }];

function tabOf(params: URLSearchParams): FunnelTab {
  if (params.get("tab") === "dentalink") return "dentalink";
  // A shared link with only filters in it (`/funnel?q=rojas`) opens the list.
  const filtering = Object.keys(defaultLeadFilters).some((key) => params.has(key));
  return params.get("tab") === "leads" || filtering ? "leads" : "overview";
}

const leadParam = z.uuid().nullable().catch(null);

// DESIGN decision 10: staff only.
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const params = new URL(args.request.url).searchParams;
  const tab = tabOf(params);
  const db = await getDb();
  // The overview's figures aggregate every lead; the other tabs only need the panel's counters, which come from the
  // per-level/status tallies (a 100,000-lead scan on every panel load would miss the panel's budget).
  const counts = tab === "overview" ? await loadLeadCounts(db) : null;
  const sync =
    tab === "dentalink"
      ? await loadSyncTab(db, {
          client: dentalinkClient(),
          settings: dentalinkSettings(),
          leadId: leadParam.parse(params.get("lead")),
        })
      : null;
  const panel =
    tab === "leads"
      ? await loadLeadPanel(db, parseLeadFilters(params), { userId: user.id }, clinicFacts().shortName)
      : null;
  return {
    tab,
    stats: counts ? statCards(counts) : [],
    stages: counts ? funnelStages(counts) : [],
    systems: tab === "overview" ? systemStatus() : [],
    counters: counts
      ? {
          total: counts.total,
          hot: counts.hot,
          warm: counts.warm,
          cold: counts.cold,
          new: counts.new,
          converted: counts.converted,
        }
      : (panel?.counters ?? (await loadLeadCounters(db))),
    panel,
    sync,
  };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const form = await readForm(args.request);
  const actor = { id: user.id, roles: user.roles, ip: clientIp(args.request) };

  if (form.intent === SYNC_INTENT) {
    const parsed = syncActionSchema.safeParse(form);
    if (!parsed.success) {
      // spec 001 §5: every message at once, under the overall one.
      return data<SyncActionData>(
        actionFailure("VALIDATION", SYNC_OVERALL_MESSAGE, zodFieldErrors(parsed.error)),
        { status: 400 },
      );
    }
    try {
      const result = await runSync(await getDb(), { client: dentalinkClient(), form: parsed.data, actor });
      return data<SyncActionData>(actionSuccess({ result }, result.message));
    } catch (error) {
      return appErrorResult(error);
    }
  }

  const parsed = leadPanelActionSchema.safeParse(form);
  if (!parsed.success) return validationResult(parsed.error);
  const { leadId, intent } = parsed.data;
  const outcome = await applyLeadIntent(await getDb(), { leadId, intent, actor });
  if (!outcome) throw data({ message: "No encontramos ese lead." }, { status: 404 });
  return data<LeadPanelActionResult>(actionSuccess({ leadId, status: outcome.status }, outcome.message));
}

export default function FunnelPage({ loaderData }: Route.ComponentProps) {
  return (
    <FunnelDashboard
      tab={loaderData.tab}
      stats={loaderData.stats}
      stages={loaderData.stages}
      systems={loaderData.systems}
      counters={loaderData.counters}
      panel={loaderData.panel}
      sync={loaderData.sync}
    />
  );
}
