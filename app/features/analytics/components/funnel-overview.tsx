import {
  ArrowDownRight,
  ArrowRight,
  ArrowUpRight,
  CalendarPlus,
  CheckCircle2,
  Clock,
  Flame,
  FlaskConical,
  Home,
  MessageCircle,
  TrendingUp,
  Users,
} from "lucide-react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import type { FunnelStage, PeriodView, StatCard } from "../analytics-dto";
import { PeriodPicker } from "./period-picker";
import { cn } from "~/lib/cn";
import { formatPercent } from "../funnel-stats";

const cardIcons: Record<string, typeof Users> = {
  total: Users,
  hot: Flame,
  converted: CheckCircle2,
  rate: TrendingUp,
  response: Clock,
  whatsapp: MessageCircle,
};

/** A card's change against the previous period: arrow and sign for the eye, words for a screen reader. */
function StatChange({ card }: { card: StatCard }) {
  const change = card.change;
  if (!change) return null;
  const Arrow = change.trend === "up" ? ArrowUpRight : change.trend === "down" ? ArrowDownRight : ArrowRight;
  const good =
    change.trend === "flat" || change.trend === "none"
      ? null
      : (change.trend === "up") !== Boolean(card.lowerIsBetter);
  return (
    <p
      className={cn(
        "mt-2 flex items-center gap-1 text-xs font-semibold",
        good === null ? "text-slate-700" : good ? "text-emerald-800" : "text-red-800",
      )}
      data-testid={`change-${card.key}`}
    >
      {change.trend !== "none" && <Arrow aria-hidden className="size-4 shrink-0" />}
      <span aria-hidden>{change.text}</span>
      <span className="sr-only">{change.srText}</span>
    </p>
  );
}

/** The Overview tab: period picker, indicator cards, the conversion funnel, quick actions, then `children`. */
export function FunnelOverview({
  stats,
  stages,
  period,
  children,
}: {
  stats: StatCard[];
  stages: FunnelStage[];
  period: PeriodView | null;
  /** What the dashboard shows after the quick actions (the system status). */
  children?: React.ReactNode;
}) {
  return (
    <div className="space-y-10">
      {period && <PeriodPicker period={period} tab="overview" />}
      <section aria-labelledby="indicadores">
        <h2 id="indicadores" className="sr-only">
          Indicadores
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {stats.map((card) => {
            const Icon = cardIcons[card.key] ?? Users;
            return (
              <li
                key={card.key}
                className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
                data-testid={`stat-${card.key}`}
              >
                <div className="flex items-center justify-between gap-2">
                  <p className="text-sm font-medium text-slate-600">{card.label}</p>
                  <Icon aria-hidden className="size-5 text-brand-700" />
                </div>
                <p className="mt-2 text-3xl font-bold">{card.value}</p>
                <p className="mt-1 text-xs text-slate-600">{card.hint}</p>
                <StatChange card={card} />
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="embudo">
        <h2 id="embudo" className="text-xl font-semibold">
          Embudo de conversión
        </h2>
        <ol className="mt-4 space-y-3">
          {stages.map((stage, index) => (
            <li
              key={stage.key}
              className="rounded-xl border border-slate-200 bg-white p-4"
              data-testid={`stage-${stage.key}`}
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold">
                  <span className="mr-2 text-slate-500">{index + 1}.</span>
                  {stage.title} <span className="font-normal text-slate-600">/ {stage.channel}</span>
                </p>
                <p className="text-sm text-slate-700">
                  <span className="text-lg font-bold text-ink">{stage.count}</span> ·{" "}
                  {formatPercent(stage.share)}
                </p>
              </div>
              <div className="mt-2 h-2.5 rounded-full bg-slate-100" aria-hidden>
                <div
                  className="h-2.5 rounded-full bg-brand-600"
                  style={{ width: `${Math.round(stage.share * 1000) / 10}%` }}
                />
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="acciones-rapidas">
        <h2 id="acciones-rapidas" className="text-xl font-semibold">
          Acciones Rápidas
        </h2>
        <div className="mt-4 flex flex-wrap gap-3">
          <Link to="?tab=leads" className={buttonClass("primary")}>
            <Users aria-hidden className="size-4" />
            Gestionar leads
          </Link>
          <Link to="?tab=dentalink" className={buttonClass("secondary")}>
            <CalendarPlus aria-hidden className="size-4" />
            Sincronizar con Dentalink
          </Link>
          <Link to="/test" className={buttonClass("secondary")}>
            <FlaskConical aria-hidden className="size-4" />
            Dashboard de Pruebas
          </Link>
          <Link to="/funnel/mensajes" className={buttonClass("secondary")}>
            <MessageCircle aria-hidden className="size-4" />
            Mensajes de WhatsApp
          </Link>
          <Link to="/" className={buttonClass("secondary")}>
            <Home aria-hidden className="size-4" />
            Ir a la landing
          </Link>
        </div>
      </section>

      {children}
    </div>
  );
}
