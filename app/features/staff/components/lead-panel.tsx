import { CalendarCheck, Mail, MessageCircle, PhoneCall, Search, UserCheck } from "lucide-react";
import { Form, Link, useFetcher } from "react-router";
import { Input, Select } from "~/components/ui/field";
import { cn } from "~/lib/cn";
import type { LeadCard, LeadPanelActionResult, LeadPanelData } from "../funnel-dto";
import {
  levelBadgeClass,
  levelFilterLabels,
  levelFilters,
  statusFilterLabels,
  statusFilters,
} from "../lead-panel-options";

export interface LeadCounters {
  total: number;
  hot: number;
  warm: number;
  cold: number;
  new: number;
  converted: number;
}

const counterLabels: Array<[keyof LeadCounters, string]> = [
  ["total", "Total"],
  ["hot", "Calientes"],
  ["warm", "Tibios"],
  ["cold", "Fríos"],
  ["new", "Nuevos"],
  ["converted", "Convertidos"],
];

const darkLabel = "block text-sm font-medium text-slate-200";

export function LeadPanel({ panel, counters }: { panel: LeadPanelData; counters: LeadCounters }) {
  const filtered =
    panel.filters.q !== "" || panel.filters.level !== "todos" || panel.filters.status !== "todos";
  return (
    <section aria-labelledby="gestion-leads" className="rounded-2xl bg-slate-900 p-5 text-slate-100 sm:p-6">
      <h2 id="gestion-leads" className="text-xl font-semibold text-white">
        Gestión de Leads
      </h2>

      <dl className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-6">
        {counterLabels.map(([key, label]) => (
          <div key={key} className="rounded-xl bg-slate-800 p-3 text-center" data-testid={`counter-${key}`}>
            <dt className="text-xs text-slate-300">{label}</dt>
            <dd className="text-2xl font-bold text-white">{counters[key]}</dd>
          </div>
        ))}
      </dl>

      <Form
        method="get"
        className="mt-6 grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end"
        role="search"
      >
        <input type="hidden" name="tab" value="leads" />
        <div className="space-y-1.5">
          <label htmlFor="lead-q" className={darkLabel}>
            Buscar por nombre, teléfono o e-mail
          </label>
          <Input id="lead-q" name="q" type="search" defaultValue={panel.filters.q} maxLength={100} />
        </div>
        <div className="space-y-1.5">
          <label htmlFor="lead-level" className={darkLabel}>
            Nivel
          </label>
          <Select id="lead-level" name="level" defaultValue={panel.filters.level}>
            {levelFilters.map((value) => (
              <option key={value} value={value}>
                {levelFilterLabels[value]}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <label htmlFor="lead-status" className={darkLabel}>
            Estado
          </label>
          <Select id="lead-status" name="status" defaultValue={panel.filters.status}>
            {statusFilters.map((value) => (
              <option key={value} value={value}>
                {statusFilterLabels[value]}
              </option>
            ))}
          </Select>
        </div>
        <button
          type="submit"
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
        >
          <Search aria-hidden className="size-4" />
          Filtrar
        </button>
      </Form>
      {filtered && (
        <p className="mt-2 text-sm">
          <Link to="?tab=leads" className="text-brand-100 underline underline-offset-2">
            Quitar filtros
          </Link>
        </p>
      )}

      {panel.leads.length === 0 ? (
        <p className="mt-8 rounded-xl border border-dashed border-slate-600 p-8 text-center text-slate-300">
          No se encontraron leads
        </p>
      ) : (
        <>
          <p className="mt-6 text-sm text-slate-300" aria-live="polite">
            {panel.truncated
              ? `Mostrando los ${panel.limit} leads más recientes que coinciden. Afina la búsqueda para ver otros.`
              : panel.leads.length === 1
                ? "1 lead encontrado."
                : `${panel.leads.length} leads encontrados.`}
          </p>
          <ul className="mt-3 grid gap-4 lg:grid-cols-2">
            {panel.leads.map((lead) => (
              <LeadCardItem key={lead.id} lead={lead} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

const actionButton =
  "inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold transition-colors " +
  "disabled:cursor-not-allowed disabled:opacity-60";

function LeadCardItem({ lead }: { lead: LeadCard }) {
  const fetcher = useFetcher<LeadPanelActionResult>({ key: `lead-${lead.id}` });
  const busy = fetcher.state !== "idle";
  const pendingIntent = busy ? fetcher.formData?.get("intent") : null;
  return (
    <li className="flex flex-col rounded-xl bg-slate-800 p-4 ring-1 ring-slate-700" data-testid="lead-card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="text-lg font-semibold text-white">
          <Link to={`/funnel/leads/${lead.id}`} className="underline-offset-2 hover:underline">
            {lead.name}
          </Link>
        </h3>
        <div className="flex flex-wrap gap-2 text-xs font-semibold">
          <span className={cn("rounded-full px-2.5 py-0.5", levelBadgeClass[lead.level] ?? "bg-slate-600")}>
            {lead.levelLabel} · {lead.score}
          </span>
          <span className="rounded-full bg-slate-600 px-2.5 py-0.5 text-white" data-testid="lead-status">
            {lead.statusLabel}
          </span>
        </div>
      </div>

      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-400">Teléfono</dt>
        <dd>{lead.phone}</dd>
        {lead.email && (
          <>
            <dt className="text-slate-400">E-mail</dt>
            <dd className="break-all">{lead.email}</dd>
          </>
        )}
        <dt className="text-slate-400">Tratamiento</dt>
        <dd>{lead.treatmentLabel}</dd>
        <dt className="text-slate-400">Urgencia</dt>
        <dd>{lead.urgencyLabel}</dd>
        <dt className="text-slate-400">Presupuesto</dt>
        <dd>{lead.budgetLabel}</dd>
        <dt className="text-slate-400">Origen</dt>
        <dd>{lead.sourceLabel}</dd>
      </dl>

      {lead.message && (
        <p className="mt-3 rounded-lg bg-slate-900/60 p-3 text-sm whitespace-pre-line text-slate-200">
          {lead.message}
        </p>
      )}

      <p className="mt-3 text-xs text-slate-300">
        Creado <time dateTime={lead.createdAt}>{lead.createdAgo}</time>
        <span aria-hidden> · </span>
        {lead.lastContactAgo ? `Último contacto ${lead.lastContactAgo}` : "Sin contacto aún"}
      </p>

      <div className="mt-4 flex flex-wrap gap-2">
        <a
          href={lead.whatsappHref}
          target="_blank"
          rel="noopener noreferrer"
          className={cn(actionButton, "bg-emerald-700 text-white hover:bg-emerald-800")}
        >
          <MessageCircle aria-hidden className="size-4" />
          WhatsApp<span className="sr-only"> a {lead.firstName} (se abre en otra pestaña)</span>
        </a>
        <a href={lead.phoneHref} className={cn(actionButton, "bg-slate-700 text-white hover:bg-slate-600")}>
          <PhoneCall aria-hidden className="size-4" />
          Llamar<span className="sr-only"> a {lead.firstName}</span>
        </a>
        {lead.email && (
          <a
            href={`mailto:${lead.email}`}
            className={cn(actionButton, "bg-slate-700 text-white hover:bg-slate-600")}
          >
            <Mail aria-hidden className="size-4" />
            E-mail<span className="sr-only"> a {lead.firstName}</span>
          </a>
        )}
        <fetcher.Form method="post" className="flex flex-wrap gap-2">
          <input type="hidden" name="leadId" value={lead.id} />
          <input type="hidden" name="from" value={lead.status} />
          <button
            type="submit"
            name="intent"
            value="mark-contacted"
            disabled={busy}
            className={cn(actionButton, "bg-sky-700 text-white hover:bg-sky-800")}
          >
            <UserCheck aria-hidden className="size-4" />
            {pendingIntent === "mark-contacted" ? "Guardando..." : "Marcar contactado"}
          </button>
        </fetcher.Form>
        {/* 'Agendar' books the lead in Dentalink: the sync tab, prefilled; a successful sync schedules the lead. */}
        <Link
          to={`/funnel?tab=dentalink&lead=${lead.id}`}
          className={cn(actionButton, "bg-brand-700 text-white hover:bg-brand-800")}
        >
          <CalendarCheck aria-hidden className="size-4" />
          Agendar<span className="sr-only"> a {lead.firstName} en Dentalink</span>
        </Link>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm">
        {fetcher.data && !busy ? (
          <span className={fetcher.data.ok ? "text-emerald-300" : "text-red-300"}>
            {fetcher.data.message}
          </span>
        ) : null}
      </p>
    </li>
  );
}
