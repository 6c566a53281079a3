import { Badge } from "~/components/ui/badge";
import type { ClockDto } from "../request-dto";

/** A request's legal clock: days left (amber within the week), "Vencida" in red, and the last day. */
export function ClockBadge({ clock }: { clock: ClockDto | null }) {
  if (!clock) return <span className="text-slate-600">—</span>;
  const tone = clock.overdue ? "solid-red" : clock.dueSoon ? "amber" : "neutral";
  return (
    <div className="space-y-1">
      <Badge tone={tone}>{clock.overdue ? "Vencida" : clock.label}</Badge>
      <div className="text-xs whitespace-nowrap text-slate-600">
        {clock.overdue ? clock.label.replace("Vencida ", "") : "Vence el"} {clock.dueDateLabel}
      </div>
    </div>
  );
}
