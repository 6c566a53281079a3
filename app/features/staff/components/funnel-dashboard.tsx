import { Link } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import type { AnalyticsTabData, FunnelStage, PeriodView, StatCard } from "~/features/analytics/analytics-dto";
import { AnalyticsTab } from "~/features/analytics/components/analytics-tab";
import { DentalinkSyncTab } from "~/features/dentalink-sync/components/dentalink-sync-tab";
import type { SyncTabData } from "~/features/dentalink-sync/sync-dto";
import type { LeadPanelData } from "~/features/crm/lead-list-dto";
import { DashboardHeader } from "~/components/dashboard-header";
import { FunnelOverview } from "~/features/analytics/components/funnel-overview";
import { LeadPanel } from "~/features/crm/components/lead-panel";
import type { LeadCounters } from "~/features/crm/lead-list-dto";
import type { SystemStatusLine } from "../system-status";
import { SystemStatusList } from "./system-status-list";

export type FunnelTab = "overview" | "leads" | "dentalink" | "analytics";

const tabs: Array<{ key: FunnelTab; label: string; to: string }> = [
  { key: "overview", label: "Overview", to: "/funnel" },
  { key: "leads", label: "Gestión de Leads", to: "/funnel?tab=leads" },
  { key: "dentalink", label: "Dentalink", to: "/funnel?tab=dentalink" },
  { key: "analytics", label: "Analytics", to: "/funnel?tab=analytics" },
];

export interface FunnelDashboardProps {
  tab: FunnelTab;
  stats: StatCard[];
  stages: FunnelStage[];
  counters: LeadCounters;
  panel: LeadPanelData | null;
  systems: SystemStatusLine[];
  sync: SyncTabData | null;
  period: PeriodView | null;
  analytics: AnalyticsTabData | null;
}

export function FunnelDashboard({
  tab,
  stats,
  stages,
  counters,
  panel,
  systems,
  sync,
  period,
  analytics,
}: FunnelDashboardProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <DashboardHeader
        title="Funnel Dashboard"
        description="Seguimiento de los leads desde la landing hasta la conversión."
        back={{ to: "/", label: "Volver a Landing" }}
      />

      {/* The tab lives in the URL (each tab loads its own data), so the tabs are links: they work before
          hydration and open in a new browser tab; arrow keys move between them, Enter or Space follows one. */}
      <Tabs value={tab} activationMode="manual" className="mt-8">
        <TabsList aria-label="Secciones del dashboard">
          {tabs.map((item) => (
            <TabsTrigger key={item.key} value={item.key} asChild>
              <Link to={item.to} type={undefined} onKeyDown={followOnSpace}>
                {item.label}
              </Link>
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value={tab} className="mt-8">
          {tab === "leads" && panel ? (
            <LeadPanel panel={panel} counters={counters} />
          ) : tab === "dentalink" && sync ? (
            <DentalinkSyncTab data={sync} />
          ) : tab === "analytics" && analytics ? (
            <AnalyticsTab data={analytics} />
          ) : (
            <FunnelOverview stats={stats} stages={stages} period={period}>
              <SystemStatusList systems={systems} />
            </FunnelOverview>
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}

function followOnSpace(event: React.KeyboardEvent<HTMLAnchorElement>) {
  if (event.key !== " ") return;
  event.preventDefault();
  event.currentTarget.click();
}
