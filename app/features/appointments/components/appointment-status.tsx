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
import { cn } from "~/lib/cn";

/** Tailwind classes of each badge colour (the colour of each status is `domain/appointment-status`'s). */
const toneClasses: Record<AppointmentStatusTone, { badge: string; icon: string }> = {
  sky: { badge: "bg-sky-100 text-sky-900 ring-sky-200", icon: "text-sky-700" },
  emerald: { badge: "bg-emerald-100 text-emerald-900 ring-emerald-200", icon: "text-emerald-700" },
  amber: { badge: "bg-amber-100 text-amber-900 ring-amber-200", icon: "text-amber-700" },
  slate: { badge: "bg-slate-100 text-slate-800 ring-slate-200", icon: "text-slate-600" },
  red: { badge: "bg-red-100 text-red-900 ring-red-200", icon: "text-red-700" },
};

const icons: Record<string, LucideIcon> = {
  scheduled: CalendarClock,
  confirmed: CircleCheck,
  in_progress: Hourglass,
  completed: CircleCheckBig,
  cancelled: CircleX,
  no_show: CircleAlert,
};

/** A status badge's colour classes (background, text, ring), for the patient area and the dentist agenda. */
export function statusBadgeClass(status: string): string {
  return toneClasses[appointmentStatusTone(status)].badge;
}

export function StatusIcon({ status, className }: { status: string; className?: string }) {
  const Icon = icons[status] ?? CircleHelp;
  const iconClass = toneClasses[appointmentStatusTone(status)].icon;
  return <Icon aria-hidden className={cn("size-6 shrink-0", iconClass, className)} />;
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1",
        statusBadgeClass(status),
      )}
      data-testid="status-badge"
    >
      {appointmentStatusLabel(status)}
    </span>
  );
}
