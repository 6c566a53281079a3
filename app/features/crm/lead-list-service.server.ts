import { PROFILING_OBJECTED_LABEL } from "~/domain/consent-rules";
import type { Database } from "~/db/client.server";
import { AppError } from "~/lib/base/errors";
import { consumeRate, type RateRule } from "~/lib/rate-limit.server";
import { contactOutcome, type LeadStatus } from "~/domain/lead-pipeline";
import { canChangeLead, type LeadActor } from "~/domain/lead-permissions";
import { updatedSinceContact } from "~/domain/lead-updates";
import { clinicDate, clinicTime } from "~/domain/clinic-time";
import { CSV_BOM, csvCell, csvPhoneCell, csvRow } from "~/domain/csv";
import { formatChileanPhone } from "~/domain/format";
import { formatLeadAge } from "~/domain/lead-age";
import {
  budgetLabels,
  labelOf,
  leadLevelLabels,
  leadSourceLabels,
  treatmentLabels,
  urgencyLabels,
} from "~/domain/lead-labels";
import { firstNameOf, leadWhatsappLink } from "~/domain/lead-messages";
import type { LeadCard, LeadCounters, LeadPanelData } from "./lead-list-dto";
import {
  countLeadsMatching,
  exportBatch,
  leadConditions,
  listAssignableStaff,
  listLeads,
  readLeadTallies,
  recordLeadExport,
  type ExportCursor,
  type LeadExportRow,
  type LeadListRow,
  type LeadTally,
  type Viewer,
} from "./lead-list-repository.server";
import { ALL, ASSIGNED_TO_ME, leadStatusLabels, UNASSIGNED } from "./lead-panel-options";
import {
  defaultLeadFilters,
  LEAD_PAGE_SIZE,
  leadFiltersQuery,
  MAX_LEAD_PAGE,
  type LeadFilters,
  type ParsedLeadFilters,
} from "./lead-panel-schema";

/**
 * A view narrowed by anything but level and status is counted up to this many matches, and then shown as "más de
 * 1.000". An exact count of a common term ('gonzalez', 5% of 100,000 leads) reads every match and costs more than the
 * page itself; a view by level and status is counted exactly from `lead_tallies`.
 */
export const LEAD_COUNT_CAP = 1_000;

function countersFrom(tallies: readonly LeadTally[]): LeadCounters {
  const sum = (keep: (tally: LeadTally) => boolean) =>
    tallies.filter(keep).reduce((total, tally) => total + tally.n, 0);
  return {
    total: sum(() => true),
    hot: sum((tally) => tally.level === "hot"),
    warm: sum((tally) => tally.level === "warm"),
    cold: sum((tally) => tally.level === "cold"),
    new: sum((tally) => tally.status === "new"),
    converted: sum((tally) => tally.status === "converted"),
  };
}

/** The panel's counters (Total, Calientes, Tibios, Fríos, Nuevos, Convertidos), exact and without a scan. */
export async function loadLeadCounters(db: Database): Promise<LeadCounters> {
  return countersFrom(await readLeadTallies(db));
}

/** The exact count of a view narrowed by level and status only (or not at all), from the tallies; else null. */
function tallyCount(filters: LeadFilters, tallies: readonly LeadTally[]): number | null {
  const { level, status, ...rest } = filters;
  const others: Array<keyof typeof rest> = ["q", "source", "treatment", "assignee", "from", "to"];
  if (others.some((key) => rest[key] !== defaultLeadFilters[key])) return null;
  return tallies
    .filter(
      (tally) => (level === ALL || tally.level === level) && (status === ALL || tally.status === status),
    )
    .reduce((total, tally) => total + tally.n, 0);
}

function toCard(row: LeadListRow, viewer: LeadActor, now: Date, clinicName: string): LeadCard {
  const treatmentLabel = labelOf(treatmentLabels, row.treatment);
  return {
    id: row.id,
    name: row.name,
    firstName: firstNameOf(row.name),
    phone: formatChileanPhone(row.phone),
    phoneHref: `tel:${row.phone}`,
    whatsappHref: leadWhatsappLink(row.phone, row.name, treatmentLabel, clinicName),
    email: row.email,
    level: row.level,
    levelLabel: labelOf(leadLevelLabels, row.level),
    score: row.score,
    profilingObjected: row.profilingObjectedAt !== null,
    status: row.status,
    statusLabel: labelOf(leadStatusLabels, row.status),
    treatmentLabel,
    urgencyLabel: labelOf(urgencyLabels, row.urgency),
    budgetLabel: labelOf(budgetLabels, row.budget),
    message: row.message,
    sourceLabel: labelOf(leadSourceLabels, row.source),
    createdAt: row.createdAt.toISOString(),
    createdAgo: formatLeadAge(row.createdAt, now),
    lastContactAt: row.lastContactAt?.toISOString() ?? null,
    lastContactAgo: row.lastContactAt ? formatLeadAge(row.lastContactAt, now) : null,
    assigneeName: row.assigneeName,
    updatedSinceContact: updatedSinceContact(row.resubmittedAt, row.lastContactAt),
    canContact: contactOutcome(row.status as LeadStatus) !== null,
    canChange: canChangeLead(viewer, row.assignedTo),
  };
}

/**
 * One page of the 'Gestión de Leads' list for a view, with the number of matches and the filter options; each card
 * says whether the viewer may change its lead.
 */
export async function loadLeadPanel(
  db: Database,
  parsed: ParsedLeadFilters,
  viewer: Viewer & { roles: readonly string[] },
  clinicName: string,
  now = new Date(),
): Promise<LeadPanelData> {
  const { filters } = parsed;
  const where = leadConditions(filters, viewer);
  const tallies = await readLeadTallies(db);
  const exact = tallyCount(filters, tallies);
  const { count, capped } =
    exact === null ? await countLeadsMatching(db, where, LEAD_COUNT_CAP) : { count: exact, capped: false };
  const knownPages = Math.max(1, Math.ceil(count / LEAD_PAGE_SIZE));
  // A page past the end shows the last one (a shared link after leads were closed, say); when the count stopped at
  // the cap there may be more pages than it knows.
  const page = capped ? filters.page : Math.min(filters.page, knownPages, MAX_LEAD_PAGE);
  const rows =
    count === 0
      ? []
      : await listLeads(db, where, filters.sort, {
          limit: LEAD_PAGE_SIZE + 1,
          offset: (page - 1) * LEAD_PAGE_SIZE,
          fewMatches: !capped && count <= LEAD_COUNT_CAP,
        });
  const staff = await listAssignableStaff(db);
  const view: LeadFilters = { ...filters, page };
  return {
    counters: countersFrom(tallies),
    filters: view,
    ignored: parsed.ignored,
    leads: rows
      .slice(0, LEAD_PAGE_SIZE)
      .map((row) => toCard(row, { id: viewer.userId, roles: viewer.roles }, now, clinicName)),
    total: count,
    totalCapped: capped,
    page,
    pageCount: capped ? Math.max(knownPages, page) : knownPages,
    lastPageReached: page === MAX_LEAD_PAGE && rows.length > LEAD_PAGE_SIZE,
    pageSize: LEAD_PAGE_SIZE,
    hasNextPage: rows.length > LEAD_PAGE_SIZE && page < MAX_LEAD_PAGE,
    assignees: [
      { value: ALL, label: "Todos" },
      { value: ASSIGNED_TO_ME, label: "Mis leads" },
      { value: UNASSIGNED, label: "Sin asignar" },
      ...staff.map((member) => ({
        value: member.id,
        label: `${member.firstName} ${member.lastName}`.trim(),
      })),
    ],
    query: leadFiltersQuery(view),
  };
}

const EXPORT_BATCH = 1_000;

export const LEAD_EXPORT_HEADER = [
  "Nombre",
  "Teléfono",
  "E-mail",
  "Tratamiento",
  "Urgencia",
  "Presupuesto",
  "Puntaje",
  "Nivel",
  "Estado",
  "Origen",
  "Asignado a",
  "Creado",
  "Último contacto",
  "Mensaje",
];

/** "2026-11-25 14:05" on the clinic's clock: Excel es-CL reads it as a date and time. */
function clinicStamp(instant: Date | null): string {
  return instant ? `${clinicDate(instant)} ${clinicTime(instant)}` : "";
}

function exportLine(row: LeadExportRow): string {
  return csvRow([
    csvCell(row.name),
    csvPhoneCell(row.phone),
    csvCell(row.email),
    csvCell(labelOf(treatmentLabels, row.treatment)),
    csvCell(labelOf(urgencyLabels, row.urgency)),
    csvCell(labelOf(budgetLabels, row.budget)),
    // An unscored lead (the person objected to profiling, ADR 037) has no score or level to export.
    csvCell(row.profilingObjectedAt ? PROFILING_OBJECTED_LABEL : row.score),
    csvCell(row.profilingObjectedAt ? "" : labelOf(leadLevelLabels, row.level)),
    csvCell(labelOf(leadStatusLabels, row.status)),
    csvCell(labelOf(leadSourceLabels, row.source)),
    csvCell(row.assigneeName),
    csvCell(clinicStamp(row.createdAt)),
    csvCell(clinicStamp(row.lastContactAt)),
    csvCell(row.message),
  ]);
}

export interface LeadExport {
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/**
 * The CSV of every lead of a view (all pages), written to the audit log first. The body is pulled batch by batch
 * (keyset on the view's sort), so memory holds one batch of 1,000 rows whatever the size of the export, and a
 * client that stops reading stops the queries.
 */
/** CSV exports per staff member: 20 an hour. */
export const LEAD_EXPORT_RULE: RateRule = { window: 60 * 60, max: 20 };

export async function exportLeads(
  db: Database,
  input: {
    filters: LeadFilters;
    viewer: Viewer;
    actor: { id: string; roles: string[]; ip: string };
    now?: Date;
  },
): Promise<LeadExport> {
  const now = input.now ?? new Date();
  // A download of personal data in bulk: a few a day is work, dozens an hour is someone copying the base.
  const rate = await consumeRate(db, `lead-export:user:${input.actor.id}`, LEAD_EXPORT_RULE, now);
  if (!rate.allowed) {
    throw new AppError(
      "RATE_LIMITED",
      "Descargaste demasiadas exportaciones seguidas; espera unos minutos e intenta nuevamente.",
      rate.retryAfter ?? undefined,
    );
  }
  const filters: LeadFilters = { ...input.filters, page: 1 };
  await recordLeadExport(db, {
    actorId: input.actor.id,
    actorRoles: input.actor.roles,
    ip: input.actor.ip,
    filters,
    at: now,
  });
  const where = leadConditions(filters, input.viewer);
  const encoder = new TextEncoder();
  let cursor: ExportCursor | null = null;
  let started = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_BOM + csvRow(LEAD_EXPORT_HEADER.map(csvCell))));
          return;
        }
        const { rows, next } = await exportBatch(db, where, filters.sort, cursor, EXPORT_BATCH);
        if (rows.length > 0) controller.enqueue(encoder.encode(rows.map(exportLine).join("")));
        if (rows.length < EXPORT_BATCH) controller.close();
        cursor = next;
      },
    },
    { highWaterMark: 1 },
  );
  return { filename: `leads-${clinicDate(now)}.csv`, body };
}
