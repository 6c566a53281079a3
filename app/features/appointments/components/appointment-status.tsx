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
import { cn } from "~/lib/cn";

interface StatusLook {
  label: string;
  icon: LucideIcon;
  badge: string;
  iconClass: string;
}

// spec 000 §4: the six badges; any other value is shown raw.
const looks: Record<string, StatusLook> = {
  scheduled: {
    label: "Programada",
    icon: CalendarClock,
    badge: "bg-sky-100 text-sky-900 ring-sky-200",
    iconClass: "text-sky-700",
  },
  confirmed: {
    label: "Confirmada",
    icon: CircleCheck,
    badge: "bg-emerald-100 text-emerald-900 ring-emerald-200",
    iconClass: "text-emerald-700",
  },
  in_progress: {
    label: "En Progreso",
    icon: Hourglass,
    badge: "bg-amber-100 text-amber-900 ring-amber-200",
    iconClass: "text-amber-700",
  },
  completed: {
    label: "Completada",
    icon: CircleCheckBig,
    badge: "bg-slate-100 text-slate-800 ring-slate-200",
    iconClass: "text-slate-600",
  },
  cancelled: {
    label: "Cancelada",
    icon: CircleX,
    badge: "bg-red-100 text-red-900 ring-red-200",
    iconClass: "text-red-700",
  },
  no_show: {
    label: "No Asistió",
    icon: CircleAlert,
    badge: "bg-orange-100 text-orange-900 ring-orange-200",
    iconClass: "text-orange-700",
  },
};

function lookOf(status: string): StatusLook {
  return (
    looks[status] ?? {
      label: status,
      icon: CircleHelp,
      badge: "bg-slate-100 text-slate-800 ring-slate-200",
      iconClass: "text-slate-600",
    }
  );
}

export function statusLabel(status: string): string {
  return lookOf(status).label;
}

export function StatusIcon({ status, className }: { status: string; className?: string }) {
  const { icon: Icon, iconClass } = lookOf(status);
  return <Icon aria-hidden className={cn("size-6 shrink-0", iconClass, className)} />;
}

export function StatusBadge({ status }: { status: string }) {
  const look = lookOf(status);
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1",
        look.badge,
      )}
      data-testid="status-badge"
    >
      {look.label}
    </span>
  );
}
