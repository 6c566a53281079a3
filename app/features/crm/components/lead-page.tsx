import { PROFILING_OBJECTED_LABEL } from "~/domain/consent-rules";
import { ArrowLeft, CalendarCheck, UserCheck } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { LEAD_CHANGE_REFUSED } from "~/domain/lead-permissions";
import { Select, Textarea } from "~/components/ui/field";
import { cn } from "~/lib/cn";
import { LeadAge } from "./lead-age";
import { LeadContactLinks } from "./lead-contact-links";
import { levelBadgeTone } from "../lead-panel-options";
import type { HistoryEntry, LeadPageActionResult, LeadPageData } from "../lead-page-dto";
import { NOTE_MAX_LENGTH } from "../lead-page-schema";

function useAction(key: string) {
  const fetcher = useFetcher<LeadPageActionResult>({ key });
  return { fetcher, busy: fetcher.state !== "idle" };
}

function ActionMessage({ result }: { result: LeadPageActionResult | undefined }) {
  if (!result) return null;
  return (
    <span className={result.ok ? "text-emerald-800" : "text-red-700"}>
      {result.ok ? (result.message ?? "Listo.") : result.message}
    </span>
  );
}

const smallButton =
  "inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold transition-colors " +
  "disabled:cursor-not-allowed disabled:opacity-60";

export function LeadPage({ page }: { page: LeadPageData }) {
  const { lead } = page;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <p>
        <Link to="/funnel?tab=leads" className={buttonClass("secondary")}>
          <ArrowLeft aria-hidden className="size-4" />
          Volver a Gestión de Leads
        </Link>
      </p>
      <header className="mt-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{lead.name}</h1>
          <p className="mt-2 flex flex-wrap gap-2 text-sm font-semibold">
            {lead.profilingObjected ? (
              <Badge size="md" tone="solid-slate" data-testid="lead-unscored">
                {PROFILING_OBJECTED_LABEL}
              </Badge>
            ) : (
              <Badge size="md" tone={levelBadgeTone[lead.level] ?? "solid-slate"}>
                {lead.levelLabel} · {lead.score}
              </Badge>
            )}
            <Badge size="md" tone="solid-slate" data-testid="lead-status">
              {lead.statusLabel}
              {lead.lostReasonLabel ? ` · ${lead.lostReasonLabel}` : ""}
            </Badge>
            {lead.updated && (
              <span className="rounded-full bg-amber-100 px-3 py-1 text-amber-900" data-testid="lead-updated">
                Actualizado <LeadAge at={lead.updated.at} serverText={lead.updated.ago} />
              </span>
            )}
          </p>
        </div>
      </header>

      <div className="mt-8 grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="space-y-6">
          <ContactActions page={page} />
          <PipelineActions page={page} />
          {/* Keyed: a half-written note on one lead is not carried to the next. */}
          {page.canChange && <Notes key={lead.id} leadId={lead.id} />}
          <History entries={page.history} />
        </div>
        <aside className="space-y-6">
          <Details page={page} />
          <Assignment page={page} />
        </aside>
      </div>
    </div>
  );
}

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function ContactActions({ page }: { page: LeadPageData }) {
  const { lead } = page;
  const { fetcher, busy } = useAction(`lead-contact-${lead.id}`);
  return (
    <Section title="Contacto" id="lead-contacto">
      <div className="flex flex-wrap gap-2">
        <LeadContactLinks
          lead={lead}
          button={smallButton}
          whatsappClass="bg-emerald-800 hover:bg-emerald-900"
          callClass="bg-slate-700 hover:bg-slate-800"
        />
        {page.canChange && page.canContact && (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="contact" />
            <input type="hidden" name="from" value={lead.status} />
            <button
              type="submit"
              disabled={busy}
              className={cn(smallButton, "bg-sky-800 text-white hover:bg-sky-900")}
            >
              <UserCheck aria-hidden className="size-4" />
              {busy ? "Guardando..." : "Marcar contactado"}
            </button>
          </fetcher.Form>
        )}
        {page.canChange && (
          <Link
            to={page.scheduleHref}
            className={cn(smallButton, "bg-brand-700 text-white hover:bg-brand-800")}
          >
            <CalendarCheck aria-hidden className="size-4" />
            Agendar<span className="sr-only"> a {lead.firstName} en Dentalink</span>
          </Link>
        )}
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm">
        {!busy && <ActionMessage result={fetcher.data} />}
      </p>
    </Section>
  );
}

function PipelineActions({ page }: { page: LeadPageData }) {
  const { lead } = page;
  const { fetcher, busy } = useAction(`lead-pipeline-${lead.id}`);
  // From 'Nuevo', moving to contacted is the 'Marcar contactado' button above: one button per action.
  const moves = page.actions.filter(
    (action) => !action.needsReason && !(lead.status === "new" && action.to === "contacted"),
  );
  const canLose = page.canChange && page.actions.some((action) => action.needsReason);
  return (
    <Section title="Etapa del lead" id="lead-etapa">
      <p className="text-sm text-slate-700">
        Estado actual: <strong>{lead.statusLabel}</strong>
        {page.actions.length === 0 && ". Un lead convertido ya no cambia de estado."}
      </p>
      {!page.canChange && (
        <p className="mt-2 text-sm text-slate-700" data-testid="lead-read-only">
          {LEAD_CHANGE_REFUSED}
        </p>
      )}
      {page.canChange && moves.length > 0 && (
        <div className="mt-3 flex flex-wrap gap-2">
          {moves.map((move) => (
            <fetcher.Form method="post" key={move.to}>
              <input type="hidden" name="intent" value="transition" />
              <input type="hidden" name="from" value={lead.status} />
              <input type="hidden" name="to" value={move.to} />
              <button type="submit" disabled={busy} className={buttonClass("primary", "px-3 py-2 text-sm")}>
                {move.label}
              </button>
            </fetcher.Form>
          ))}
        </div>
      )}
      {canLose && (
        <fetcher.Form method="post" className="mt-4 flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="transition" />
          <input type="hidden" name="from" value={lead.status} />
          <input type="hidden" name="to" value="lost" />
          <div className="space-y-1.5">
            <label htmlFor="lost-reason" className="block text-sm font-medium text-slate-800">
              Motivo de pérdida
            </label>
            <Select id="lost-reason" name="reason" required defaultValue="">
              <option value="" disabled>
                Elige un motivo
              </option>
              {page.lostReasons.map((reason) => (
                <option key={reason.value} value={reason.value}>
                  {reason.label}
                </option>
              ))}
            </Select>
          </div>
          <button type="submit" disabled={busy} className={buttonClass("accent", "px-3 py-2.5 text-sm")}>
            Marcar perdido
          </button>
        </fetcher.Form>
      )}
      <p role="status" className="mt-2 min-h-5 text-sm">
        {!busy && <ActionMessage result={fetcher.data} />}
      </p>
    </Section>
  );
}

function Notes({ leadId }: { leadId: string }) {
  // Keyed per lead: "Nota agregada." on one lead must not show on the next one opened.
  const { fetcher, busy } = useAction(`lead-note-${leadId}`);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) form.current?.reset();
  }, [fetcher.state, fetcher.data]);
  return (
    <Section title="Notas" id="lead-notas">
      <fetcher.Form method="post" ref={form} className="space-y-2">
        <input type="hidden" name="intent" value="note" />
        <label htmlFor="lead-note" className="block text-sm font-medium text-slate-800">
          Nueva nota
        </label>
        <Textarea
          id="lead-note"
          name="text"
          rows={3}
          required
          maxLength={NOTE_MAX_LENGTH}
          aria-describedby="lead-note-hint"
        />
        <p id="lead-note-hint" className="text-xs text-slate-600">
          Hasta {NOTE_MAX_LENGTH.toLocaleString("es-CL")} caracteres. Queda en el historial con tu nombre.
        </p>
        <button type="submit" disabled={busy} className={buttonClass("primary", "px-3 py-2 text-sm")}>
          {busy ? "Guardando..." : "Agregar nota"}
        </button>
        <p role="status" className="min-h-5 text-sm">
          {!busy && <ActionMessage result={fetcher.data} />}
        </p>
      </fetcher.Form>
    </Section>
  );
}

function History({ entries }: { entries: HistoryEntry[] }) {
  return (
    <Section title="Historial" id="lead-historial">
      <ol className="space-y-3" data-testid="lead-history">
        {entries.map((entry) => (
          <li key={entry.id} className="rounded-xl border border-slate-200 p-3" data-kind={entry.kind}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-semibold">{entry.title}</p>
              {entry.badge && <Badge tone={entry.badge.tone}>{entry.badge.label}</Badge>}
            </div>
            <p className="mt-1 text-xs text-slate-700">
              <time dateTime={entry.at}>{entry.atLabel}</time>
              {entry.actorName && ` · ${entry.actorName}`}
            </p>
            {entry.body && <p className="mt-2 text-sm whitespace-pre-line text-slate-900">{entry.body}</p>}
          </li>
        ))}
      </ol>
    </Section>
  );
}

function Details({ page }: { page: LeadPageData }) {
  const { lead } = page;
  return (
    <Section title="Datos del lead" id="lead-datos">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-sm">
        <dt className="text-slate-700">Teléfono</dt>
        <dd>{lead.phone}</dd>
        <dt className="text-slate-700">E-mail</dt>
        <dd className="break-all">{lead.email ?? "—"}</dd>
        <dt className="text-slate-700">Tratamiento</dt>
        <dd>{lead.treatmentLabel}</dd>
        <dt className="text-slate-700">Urgencia</dt>
        <dd>{lead.urgencyLabel}</dd>
        <dt className="text-slate-700">Presupuesto</dt>
        <dd>{lead.budgetLabel}</dd>
        <dt className="text-slate-700">Origen</dt>
        <dd>{lead.sourceLabel}</dd>
        <dt className="text-slate-700">Creado</dt>
        <dd>
          <LeadAge at={lead.createdAt} serverText={lead.createdAgo} />
          <span className="block text-xs text-slate-700">{lead.createdAtLabel}</span>
        </dd>
        <dt className="text-slate-700">Último contacto</dt>
        <dd>
          {lead.lastContactAt && lead.lastContactAgo ? (
            <LeadAge at={lead.lastContactAt} serverText={lead.lastContactAgo} />
          ) : (
            "Sin contacto aún"
          )}
        </dd>
        <dt className="text-slate-700">Primer contacto</dt>
        <dd>{lead.firstContactAtLabel ?? "—"}</dd>
        <dt className="text-slate-700">Consentimiento</dt>
        <dd>{lead.consentAtLabel}</dd>
      </dl>
      <h3 className="mt-4 text-sm font-semibold">
        {lead.profilingObjected ? PROFILING_OBJECTED_LABEL : `Puntaje ${lead.score} · ${lead.levelLabel}`}
      </h3>
      {lead.reasons.length > 0 ? (
        <ul className="mt-1 list-disc pl-5 text-sm">
          {lead.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-700">Sin criterios que sumen puntos.</p>
      )}
      {lead.message && (
        <>
          <h3 className="mt-4 text-sm font-semibold">Mensaje</h3>
          <p className="mt-1 text-sm whitespace-pre-line">{lead.message}</p>
        </>
      )}
    </Section>
  );
}

function Assignment({ page }: { page: LeadPageData }) {
  const { lead, viewer } = page;
  const assign = useAction(`lead-assign-${lead.id}`);
  const availability = useAction(`staff-availability-${lead.id}`);
  return (
    <Section title="Asignación" id="lead-asignacion">
      <p className="text-sm">
        Asesor: <strong data-testid="lead-assignee">{lead.assignee?.name ?? "Sin asignar"}</strong>
      </p>
      {viewer.isAdmin && (
        <assign.fetcher.Form method="post" className="mt-3 space-y-2">
          <input type="hidden" name="intent" value="assign" />
          <label htmlFor="lead-assignee-select" className="block text-sm font-medium text-slate-800">
            Reasignar a
          </label>
          <Select id="lead-assignee-select" name="assigneeId" defaultValue={lead.assignee?.id ?? ""}>
            <option value="">Sin asignar</option>
            {page.asesores.map((asesor) => (
              <option key={asesor.id} value={asesor.id}>
                {asesor.name}
                {asesor.away ? " (ausente)" : ""}
              </option>
            ))}
          </Select>
          <button
            type="submit"
            disabled={assign.busy}
            className={buttonClass("primary", "px-3 py-2 text-sm")}
          >
            Reasignar
          </button>
          <p role="status" className="min-h-5 text-sm">
            {!assign.busy && <ActionMessage result={assign.fetcher.data} />}
          </p>
        </assign.fetcher.Form>
      )}

      {(viewer.isAsesor || viewer.isAdmin) && (
        <div className="mt-4 border-t border-slate-200 pt-3">
          <h3 className="text-sm font-semibold">Disponibilidad</h3>
          {viewer.isAsesor && (
            <availability.fetcher.Form method="post" className="mt-2">
              <input type="hidden" name="intent" value="availability" />
              <input type="hidden" name="userId" value={viewer.id} />
              <input type="hidden" name="away" value={viewer.away ? "0" : "1"} />
              <p className="text-sm">
                {viewer.away ? "Estás ausente: no recibes leads nuevos." : "Recibes leads nuevos."}
              </p>
              <button
                type="submit"
                disabled={availability.busy}
                className={buttonClass("secondary", "mt-2 px-3 py-2 text-sm")}
              >
                {viewer.away ? "Volver a recibir leads" : "Marcarme ausente"}
              </button>
            </availability.fetcher.Form>
          )}
          {viewer.isAdmin && page.asesores.length > 0 && (
            <ul className="mt-2 space-y-2 text-sm">
              {page.asesores.map((asesor) => (
                <li key={asesor.id} className="flex items-center justify-between gap-2">
                  <span>
                    {asesor.name}: {asesor.away ? "ausente" : "disponible"}
                  </span>
                  <availability.fetcher.Form method="post">
                    <input type="hidden" name="intent" value="availability" />
                    <input type="hidden" name="userId" value={asesor.id} />
                    <input type="hidden" name="away" value={asesor.away ? "0" : "1"} />
                    <button
                      type="submit"
                      disabled={availability.busy}
                      className={buttonClass("ghost", "px-2 py-1 text-sm underline")}
                    >
                      {asesor.away ? "Marcar disponible" : "Marcar ausente"}
                      <span className="sr-only"> a {asesor.name}</span>
                    </button>
                  </availability.fetcher.Form>
                </li>
              ))}
            </ul>
          )}
          <p role="status" className="mt-2 min-h-5 text-sm">
            {!availability.busy && <ActionMessage result={availability.fetcher.data} />}
          </p>
        </div>
      )}
    </Section>
  );
}
