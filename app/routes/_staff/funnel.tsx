import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/funnel";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES, hasAdminRole, STAFF_ROLES } from "~/domain/roles";
import {
  changeDentistLink,
  retryWriteThrough,
} from "~/features/dentalink-sync/dentalink-dentist-links.server";
import { dentalinkClient, dentalinkSettings } from "~/features/dentalink-sync/dentalink-settings.server";
import { loadSyncTab, runSync } from "~/features/dentalink-sync/dentalink-sync-service.server";
import type { SyncActionData } from "~/features/dentalink-sync/sync-dto";
import {
  DENTIST_LINK_INTENT,
  SYNC_INTENT,
  SYNC_OVERALL_MESSAGE,
  WRITE_THROUGH_RETRY_INTENT,
} from "~/features/dentalink-sync/sync-options";
import {
  dentistLinkActionSchema,
  syncActionSchema,
  writeThroughRetrySchema,
} from "~/features/dentalink-sync/sync-schema";
import { loadAnalyticsTab, loadOverview, selectPeriod } from "~/features/analytics/analytics-service.server";
import { FunnelDashboard, type FunnelTab } from "~/features/staff/components/funnel-dashboard";
import type { LeadPanelActionResult } from "~/features/crm/lead-list-dto";
import { applyLeadIntent } from "~/features/crm/lead-panel-service.server";
import { loadLeadCounters, loadLeadPanel } from "~/features/crm/lead-list-service.server";
import {
  defaultLeadFilters,
  leadPanelActionSchema,
  parseLeadFilters,
} from "~/features/crm/lead-panel-schema";
import { systemStatus } from "~/features/staff/system-status.server";
import { clientIp } from "~/lib/client-ip.server";
import { clinicFacts } from "~/lib/base/env.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";
import { actionFailure, actionSuccess, zodFieldErrors } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";

export const meta: Route.MetaFunction = () => [{ title: "Funnel Dashboard | Río Clínica" }];

function tabOf(params: URLSearchParams): FunnelTab {
  if (params.get("tab") === "dentalink") return "dentalink";
  if (params.get("tab") === "analytics") return "analytics";
  if (params.get("tab") === "leads") return "leads";
  // The Overview's period (`?period=custom&from=&to=`) shares `from`/`to` with the list's date filter.
  if (params.has("period")) return "overview";
  // A shared link with only filters in it (`/funnel?q=rojas`) opens the list.
  const filtering = Object.keys(defaultLeadFilters).some((key) => params.has(key));
  return filtering ? "leads" : "overview";
}

const leadParam = z.uuid().nullable().catch(null);

// Staff only (admin, asesor): leads are prospects' personal data.
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const params = new URL(args.request.url).searchParams;
  const tab = tabOf(params);
  const db = await getDb();
  // ADR 026: the Overview and Analytics cover a period (the URL's, or the user's default).
  const selection =
    tab === "overview" || tab === "analytics" ? await selectPeriod(db, user.id, params) : null;
  const overview = tab === "overview" && selection ? await loadOverview(db, selection) : null;
  const analytics = tab === "analytics" && selection ? await loadAnalyticsTab(db, selection) : null;
  const sync =
    tab === "dentalink"
      ? await loadSyncTab(db, {
          client: dentalinkClient(),
          settings: dentalinkSettings(),
          leadId: leadParam.parse(params.get("lead")),
          canEditLinks: hasAdminRole(user.roles),
        })
      : null;
  const panel =
    tab === "leads"
      ? await loadLeadPanel(
          db,
          parseLeadFilters(params),
          { userId: user.id, roles: user.roles },
          clinicFacts().shortName,
        )
      : null;
  return {
    tab,
    stats: overview?.stats ?? [],
    stages: overview?.stages ?? [],
    period: selection?.view ?? null,
    systems: tab === "overview" ? await systemStatus(db) : [],
    analytics,
    // The header's counters come from the trigger-kept tallies (no scan of the leads table on any tab).
    counters: panel?.counters ?? (await loadLeadCounters(db)),
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
      // Every field's message at once, under the overall one, as the clinic's sync form shows them.
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

  if (form.intent === DENTIST_LINK_INTENT) {
    // Which agenda the portal's bookings go to: admins only, checked here on the server.
    await requireRole(args, ADMIN_ROLES);
    const parsed = dentistLinkActionSchema.safeParse(form);
    if (!parsed.success) return validationResult(parsed.error);
    try {
      await changeDentistLink(await getDb(), { client: dentalinkClient(), ...parsed.data, actor });
      return data(actionSuccess({ dentistId: parsed.data.dentistId }, "Vínculo con Dentalink guardado."));
    } catch (error) {
      return appErrorResult(error);
    }
  }

  if (form.intent === WRITE_THROUGH_RETRY_INTENT) {
    const parsed = writeThroughRetrySchema.safeParse(form);
    if (!parsed.success) return validationResult(parsed.error);
    try {
      await retryWriteThrough(await getDb(), { outboxId: parsed.data.outboxId, actor });
      return data(actionSuccess({ outboxId: parsed.data.outboxId }, "Reintento en curso."));
    } catch (error) {
      return appErrorResult(error);
    }
  }

  const parsed = leadPanelActionSchema.safeParse(form);
  if (!parsed.success) return validationResult(parsed.error);
  const { leadId, intent, from } = parsed.data;
  try {
    const outcome = await applyLeadIntent(await getDb(), { leadId, intent, from, actor });
    return data<LeadPanelActionResult>(actionSuccess({ leadId, status: outcome.status }, outcome.message));
  } catch (error) {
    return appErrorResult(error, { notFound: "throw" });
  }
}

export default function FunnelPage({ loaderData }: Route.ComponentProps) {
  return (
    <FunnelDashboard
      tab={loaderData.tab}
      stats={loaderData.stats}
      stages={loaderData.stages}
      period={loaderData.period}
      systems={loaderData.systems}
      analytics={loaderData.analytics}
      counters={loaderData.counters}
      panel={loaderData.panel}
      sync={loaderData.sync}
    />
  );
}
