import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import type { FunnelStage, LeadPanelData, StatCard } from "../funnel-dto";
import { FunnelOverview } from "./funnel-overview";
import { LeadPanel, type LeadCounters } from "./lead-panel";

export type FunnelTab = "overview" | "leads";

// The sync and analytics tabs are added by their own feature (spec 001 §2); only working tabs are listed.
const tabs: Array<{ key: FunnelTab; label: string; to: string }> = [
  { key: "overview", label: "Overview", to: "/funnel" },
  { key: "leads", label: "Gestión de Leads", to: "/funnel?tab=leads" },
];

export interface FunnelDashboardProps {
  tab: FunnelTab;
  stats: StatCard[];
  stages: FunnelStage[];
  counters: LeadCounters;
  panel: LeadPanelData | null;
}

export function FunnelDashboard({ tab, stats, stages, counters, panel }: FunnelDashboardProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Funnel Dashboard</h1>
          <p className="mt-2 text-slate-700">
            Seguimiento de los leads desde la landing hasta la conversión.
          </p>
        </div>
        <Link to="/" className={buttonClass("secondary")}>
          <ArrowLeft aria-hidden className="size-4" />
          Volver a Landing
        </Link>
      </header>

      <nav aria-label="Secciones del dashboard" className="mt-8 border-b border-slate-200">
        <ul className="flex gap-1 overflow-x-auto">
          {tabs.map((item) => (
            <li key={item.key}>
              <Link
                to={item.to}
                aria-current={item.key === tab ? "page" : undefined}
                className={cn(
                  "-mb-px block border-b-2 px-4 py-2.5 font-medium whitespace-nowrap",
                  item.key === tab
                    ? "border-brand-700 text-brand-800"
                    : "border-transparent text-slate-600 hover:text-ink",
                )}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <div className="mt-8">
        {tab === "leads" && panel ? (
          <LeadPanel panel={panel} counters={counters} />
        ) : (
          <FunnelOverview stats={stats} stages={stages} />
        )}
      </div>
    </div>
  );
}
