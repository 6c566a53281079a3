import { PROFILING_OBJECTED_LABEL } from "~/domain/consent-rules";
import { CalendarCheck, ChevronLeft, ChevronRight, Download, Mail, Search, UserCheck } from "lucide-react";
import { Form, Link, useFetcher, useSubmit } from "react-router";
import { Input, Select } from "~/components/ui/field";
import { Badge } from "~/components/ui/badge";
import { cn } from "~/lib/cn";
import type { LeadCard, LeadCounters, LeadPanelActionResult, LeadPanelData } from "../lead-list-dto";
import {
  leadSortLabels,
  leadSorts,
  levelBadgeTone,
  levelFilterLabels,
  levelFilters,
  sourceFilterLabels,
  sourceFilters,
  statusFilterLabels,
  statusFilters,
  treatmentFilterLabels,
  treatmentFilters,
} from "../lead-panel-options";
import { defaultLeadFilters, isFiltered, leadFiltersQuery } from "../lead-panel-schema";
import { LeadAge } from "./lead-age";
import { LeadContactLinks } from "./lead-contact-links";

const counterLabels: Array<[keyof LeadCounters, string]> = [
  ["total", "Total"],
  ["hot", "Calientes"],
  ["warm", "Tibios"],
  ["cold", "Fríos"],
  ["new", "Nuevos"],
  ["converted", "Convertidos"],
];

const darkLabel = "block text-sm font-medium text-slate-200";

const selectFilters = [
  { key: "level", label: "Nivel", values: levelFilters, labels: levelFilterLabels },
  { key: "status", label: "Estado", values: statusFilters, labels: statusFilterLabels },
  { key: "source", label: "Origen", values: sourceFilters, labels: sourceFilterLabels },
  { key: "treatment", label: "Tratamiento", values: treatmentFilters, labels: treatmentFilterLabels },
] as const;

const numberFormat = new Intl.NumberFormat("es-CL");

const NO_LEADS = "No se encontraron leads";

function resultSummary(panel: LeadPanelData): string {
  const first = (panel.page - 1) * panel.pageSize + 1;
  const last = first + panel.leads.length - 1;
  const total = panel.totalCapped
    ? `más de ${numberFormat.format(panel.total)}`
    : numberFormat.format(panel.total);
  const noun = !panel.totalCapped && panel.total === 1 ? "lead" : "leads";
  return `Mostrando ${numberFormat.format(first)}–${numberFormat.format(last)} de ${total} ${noun}`;
}

/** The form's fields minus the empty and default ones, so a shared link says only what narrows the view. */
function viewParams(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  const defaults: Record<string, unknown> = { ...defaultLeadFilters };
  for (const [key, value] of new FormData(form)) {
    if (typeof value !== "string" || value.trim() === "" || value === defaults[key]) continue;
    params.set(key, value);
  }
  return params;
}

export function LeadPanel({ panel, counters }: { panel: LeadPanelData; counters: LeadCounters }) {
  const { filters } = panel;
  const submit = useSubmit();
  const filtered = isFiltered(filters);
  const pageLink = (page: number) => `?${leadFiltersQuery(filters, { page })}`;
  const exportQuery = leadFiltersQuery(filters, { page: 1 });
  return (
    <section aria-labelledby="gestion-leads" className="rounded-2xl bg-slate-900 p-5 text-slate-100 sm:p-6">
      <h2 id="gestion-leads" className="text-xl font-semibold text-white">
        Gestión de Leads
      </h2>

      <dl className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-6">
        {counterLabels.map(([key, label]) => (
          <div key={key} className="rounded-xl bg-slate-800 p-3 text-center" data-testid={`counter-${key}`}>
            <dt className="text-xs text-slate-300">{label}</dt>
            <dd className="text-2xl font-bold text-white">{numberFormat.format(counters[key])}</dd>
          </div>
        ))}
      </dl>

      {/* A GET form: every filter lands in the URL, so a view can be shared and the back button returns to it;
          it works before hydration. Submitting starts again at page 1 (no page field). */}
      <Form
        method="get"
        className="mt-6 space-y-3"
        role="search"
        aria-label="Buscar y filtrar leads"
        onSubmit={(event) => {
          // Without JavaScript the browser sends every field (level=todos&…), which works the same.
          event.preventDefault();
          void submit(viewParams(event.currentTarget), { method: "get" });
        }}
      >
        <input type="hidden" name="tab" value="leads" />
        <div className="space-y-1.5">
          <label htmlFor="lead-q" className={darkLabel}>
            Buscar por nombre, teléfono o e-mail
          </label>
          <Input
            id="lead-q"
            name="q"
            type="search"
            defaultValue={filters.q}
            maxLength={100}
            aria-describedby="lead-q-hint"
          />
          <p id="lead-q-hint" className="text-xs text-slate-300">
            Sin importar tildes ni mayúsculas; cada palabra debe coincidir (por ejemplo «gonz rojas»). El
            teléfono puede escribirse con o sin +56, espacios o guiones.
          </p>
        </div>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {selectFilters.map((filter) => (
            <div key={filter.key} className="space-y-1.5">
              <label htmlFor={`lead-${filter.key}`} className={darkLabel}>
                {filter.label}
              </label>
              <Select id={`lead-${filter.key}`} name={filter.key} defaultValue={filters[filter.key]}>
                {filter.values.map((value) => (
                  <option key={value} value={value}>
                    {(filter.labels as Record<string, string>)[value]}
                  </option>
                ))}
              </Select>
            </div>
          ))}
          <div className="space-y-1.5">
            <label htmlFor="lead-assignee" className={darkLabel}>
              Asignado a
            </label>
            <Select id="lead-assignee" name="assignee" defaultValue={filters.assignee}>
              {panel.assignees.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1.5">
            <label htmlFor="lead-from" className={darkLabel}>
              Creado desde
            </label>
            <Input id="lead-from" name="from" type="date" defaultValue={filters.from} />
          </div>
          <div className="space-y-1.5">
            <label htmlFor="lead-to" className={darkLabel}>
              Creado hasta
            </label>
            <Input id="lead-to" name="to" type="date" defaultValue={filters.to} />
          </div>
          <div className="space-y-1.5">
            <label htmlFor="lead-sort" className={darkLabel}>
              Ordenar por
            </label>
            <Select id="lead-sort" name="sort" defaultValue={filters.sort}>
              {leadSorts.map((value) => (
                <option key={value} value={value}>
                  {leadSortLabels[value]}
                </option>
              ))}
            </Select>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            <Search aria-hidden className="size-4" />
            Filtrar
          </button>
          {filtered && (
            <Link to="?tab=leads" className="text-sm text-brand-100 underline underline-offset-2">
              Quitar filtros
            </Link>
          )}
          {/* A resource route: a plain link (a document request), not a client navigation. */}
          <a
            href={`/funnel/leads.csv?${exportQuery}`}
            download
            className="ml-auto inline-flex items-center gap-2 rounded-lg bg-slate-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-slate-600"
          >
            <Download aria-hidden className="size-4" />
            Exportar CSV<span className="sr-only"> de los leads de esta vista</span>
          </a>
        </div>
      </Form>

      {panel.ignored.length > 0 && (
        <p role="alert" className="mt-4 rounded-lg bg-amber-100 p-3 text-sm text-amber-950">
          No pudimos aplicar {panel.ignored.length === 1 ? "el filtro" : "los filtros"}{" "}
          {panel.ignored.map((label) => `«${label}»`).join(", ")}: el valor no es válido, así que se usa el
          valor por defecto.
        </p>
      )}

      {/* One live region: the count, or — with no lead — the empty box itself, said once (issue 24, item 17). */}
      <div aria-live="polite">
        {panel.leads.length === 0 ? (
          <p
            className="mt-6 rounded-xl border border-dashed border-slate-600 p-8 text-center text-slate-300"
            data-testid="lead-summary"
          >
            {NO_LEADS}
          </p>
        ) : (
          <p className="mt-6 text-sm text-slate-300" data-testid="lead-summary">
            {resultSummary(panel)}
          </p>
        )}
      </div>
      {panel.leads.length > 0 && (
        <ul className="mt-3 grid gap-4 lg:grid-cols-2">
          {panel.leads.map((lead) => (
            <LeadCardItem key={lead.id} lead={lead} />
          ))}
        </ul>
      )}

      {panel.lastPageReached && (
        <p className="mt-4 text-sm text-slate-300">
          El listado llega hasta la página {numberFormat.format(panel.page)}. Para ver leads más antiguos,
          ordena por «Más antiguos» o filtra por fecha de creación.
        </p>
      )}
      {(panel.page > 1 || panel.hasNextPage) && (
        <nav aria-label="Páginas de leads" className="mt-6 flex flex-wrap items-center justify-between gap-3">
          {panel.page > 1 ? (
            <Link to={pageLink(panel.page - 1)} className={pagerLink} rel="prev">
              <ChevronLeft aria-hidden className="size-4" />
              Anterior
            </Link>
          ) : (
            <span />
          )}
          <p className="text-sm text-slate-300" aria-current="page">
            Página {numberFormat.format(panel.page)}
            {panel.totalCapped ? "" : ` de ${numberFormat.format(panel.pageCount)}`}
          </p>
          {panel.hasNextPage ? (
            <Link to={pageLink(panel.page + 1)} className={pagerLink} rel="next">
              Siguiente
              <ChevronRight aria-hidden className="size-4" />
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}

const pagerLink =
  "inline-flex items-center gap-1.5 rounded-lg bg-slate-700 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-600";

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
          {lead.profilingObjected ? (
            <Badge tone="solid-slate" data-testid="lead-unscored">
              {PROFILING_OBJECTED_LABEL}
            </Badge>
          ) : (
            <Badge tone={levelBadgeTone[lead.level] ?? "solid-slate"}>
              {lead.levelLabel} · {lead.score}
            </Badge>
          )}
          <Badge tone="solid-slate" data-testid="lead-status">
            {lead.statusLabel}
          </Badge>
          {lead.updatedSinceContact && (
            <span className="rounded-full bg-sky-700 px-2.5 py-0.5 text-white" data-testid="lead-updated">
              Actualizado<span className="sr-only">: volvió a escribir después del último contacto</span>
            </span>
          )}
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
        <dt className="text-slate-400">Asignado a</dt>
        <dd>{lead.assigneeName ?? "Sin asignar"}</dd>
      </dl>

      {lead.message && (
        <p className="mt-3 rounded-lg bg-slate-900/60 p-3 text-sm whitespace-pre-line text-slate-200">
          {lead.message}
        </p>
      )}

      <p className="mt-3 text-xs text-slate-300">
        Creado <LeadAge at={lead.createdAt} serverText={lead.createdAgo} />
        <span aria-hidden> · </span>
        {lead.lastContactAt && lead.lastContactAgo ? (
          <>
            Último contacto <LeadAge at={lead.lastContactAt} serverText={lead.lastContactAgo} />
          </>
        ) : (
          "Sin contacto aún"
        )}
      </p>

      <div className="mt-4 flex flex-wrap gap-2">
        <LeadContactLinks
          lead={lead}
          button={actionButton}
          whatsappClass="bg-emerald-700 hover:bg-emerald-800"
          callClass="bg-slate-700 hover:bg-slate-600"
        />
        {lead.email && (
          <a
            href={`mailto:${lead.email}`}
            className={cn(actionButton, "bg-slate-700 text-white hover:bg-slate-600")}
          >
            <Mail aria-hidden className="size-4" />
            E-mail<span className="sr-only"> a {lead.firstName}</span>
          </a>
        )}
        {/* A converted lead's stage is final (domain/lead-pipeline.ts): there is no contact to record. */}
        {lead.canChange && lead.canContact && (
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
        )}
        {/* 'Agendar' books the lead in Dentalink: the sync tab, prefilled; a successful sync schedules the lead. */}
        {lead.canChange && (
          <Link
            to={`/funnel?tab=dentalink&lead=${lead.id}`}
            className={cn(actionButton, "bg-brand-700 text-white hover:bg-brand-800")}
          >
            <CalendarCheck aria-hidden className="size-4" />
            Agendar<span className="sr-only"> a {lead.firstName} en Dentalink</span>
          </Link>
        )}
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
