import {
  CalendarClock,
  CircleAlert,
  CircleCheck,
  CircleCheckBig,
  CircleHelp,
  CircleX,
  Hourglass,
  type LucideIcon,
} from "lucide-react";
import {
  appointmentStatusLabel,
  appointmentStatusTone,
  type AppointmentStatusTone,
} from "~/domain/appointment-status";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/lib/cn";

/** The icon's colour for each status colour (the colour of each status is `domain/appointment-status`'s). */
const iconClasses: Record<AppointmentStatusTone, string> = {
  sky: "text-sky-700",
  emerald: "text-emerald-700",
  amber: "text-amber-700",
  slate: "text-slate-600",
  red: "text-red-700",
};

const icons: Record<string, LucideIcon> = {
  scheduled: CalendarClock,
  confirmed: CircleCheck,
  in_progress: Hourglass,
  completed: CircleCheckBig,
  cancelled: CircleX,
  no_show: CircleAlert,
};

export function StatusIcon({ status, className }: { status: string; className?: string }) {
  const Icon = icons[status] ?? CircleHelp;
  const iconClass = iconClasses[appointmentStatusTone(status)];
  return <Icon aria-hidden className={cn("size-6 shrink-0", iconClass, className)} />;
}

/** An appointment's status in its colour; `label` replaces the status's own label (the agenda's DTO carries one). */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <Badge tone={appointmentStatusTone(status)} data-testid="status-badge">
      {label ?? appointmentStatusLabel(status)}
    </Badge>
  );
}
