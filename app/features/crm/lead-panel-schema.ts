import { z } from "zod";
import { leadStatuses } from "~/domain/lead-pipeline";
import {
  ALL,
  ASSIGNED_TO_ME,
  leadPanelIntents,
  leadSorts,
  levelFilters,
  sourceFilters,
  statusFilters,
  treatmentFilters,
  UNASSIGNED,
  type LeadSort,
  type LevelFilter,
  type SourceFilter,
  type StatusFilter,
  type TreatmentFilter,
} from "./lead-panel-options";

const MAX_QUERY = 100;
export const LEAD_PAGE_SIZE = 25;
/**
 * The deepest page (10,000 leads in): an offset costs a walk over every row it skips, so paging stops here and the
 * panel suggests the other sort order or a date filter instead. Nobody reads 400 pages of leads.
 */
export const MAX_LEAD_PAGE = 400;

/** The panel's view: every filter, the sort and the page, all in the URL (a GET form; shareable, back button). */
export interface LeadFilters {
  q: string;
  level: LevelFilter;
  status: StatusFilter;
  source: SourceFilter;
  treatment: TreatmentFilter;
  /** `todos`, `mios` (assigned to the signed-in user), `sin-asignar`, or a staff member's user id. */
  assignee: string;
  /** Creation date range, inclusive, clinic calendar days "YYYY-MM-DD"; "" = open. */
  from: string;
  to: string;
  sort: LeadSort;
  page: number;
}

export const defaultLeadFilters: LeadFilters = {
  q: "",
  level: ALL,
  status: ALL,
  source: ALL,
  treatment: ALL,
  assignee: ALL,
  from: "",
  to: "",
  sort: "recientes",
  page: 1,
};

/** The URL parameter of each filter and its label in the panel (used in the "ignored" notice). */
export const leadFilterLabels: Record<keyof LeadFilters, string> = {
  q: "Buscar",
  level: "Nivel",
  status: "Estado",
  source: "Origen",
  treatment: "Tratamiento",
  assignee: "Asignado a",
  from: "Creado desde",
  to: "Creado hasta",
  sort: "Ordenar por",
  page: "Página",
};

const optionalDate = z.union([z.literal(""), z.iso.date()]);

const fieldSchemas: { [K in keyof LeadFilters]: z.ZodType<LeadFilters[K]> } = {
  q: z
    .string()
    .trim()
    .transform((value) => value.slice(0, MAX_QUERY)),
  level: z.enum(levelFilters),
  status: z.enum(statusFilters),
  source: z.enum(sourceFilters),
  treatment: z.enum(treatmentFilters),
  assignee: z.union([z.enum([ALL, ASSIGNED_TO_ME, UNASSIGNED]), z.string().regex(/^[A-Za-z0-9_-]{1,64}$/)]),
  from: optionalDate,
  to: optionalDate,
  sort: z.enum(leadSorts),
  page: z.coerce.number().int().min(1).max(MAX_LEAD_PAGE),
};

export interface ParsedLeadFilters {
  filters: LeadFilters;
  /** Parameters whose value was not valid and was replaced by its default (their labels, for a Spanish notice). */
  ignored: string[];
}

/**
 * The panel's GET parameters. A missing or empty parameter takes its default; an invalid one (an unknown level, a
 * date like 2026-02-30, page 0) also falls back to its default and is reported in `ignored`, so the page never fails
 * and the user is told what was not applied. A "desde" after the "hasta" ignores the "hasta".
 */
export function parseLeadFilters(params: URLSearchParams): ParsedLeadFilters {
  const filters = { ...defaultLeadFilters } as Record<keyof LeadFilters, unknown>;
  const ignored: string[] = [];
  for (const key of Object.keys(fieldSchemas) as Array<keyof LeadFilters>) {
    const raw = params.get(key);
    if (raw === null || raw.trim() === "") continue;
    const parsed = fieldSchemas[key].safeParse(raw.trim());
    if (parsed.success) filters[key] = parsed.data;
    else ignored.push(leadFilterLabels[key]);
  }
  const result = filters as unknown as LeadFilters;
  if (result.from && result.to && result.from > result.to) {
    result.to = "";
    ignored.push(leadFilterLabels.to);
  }
  return { filters: result, ignored };
}

/** Whether anything narrows the list (the sort and page do not). */
export function isFiltered(filters: LeadFilters): boolean {
  return (
    filters.q !== "" ||
    filters.level !== ALL ||
    filters.status !== ALL ||
    filters.source !== ALL ||
    filters.treatment !== ALL ||
    filters.assignee !== ALL ||
    filters.from !== "" ||
    filters.to !== ""
  );
}

/** The query string of a view (defaults left out, so URLs stay short); `tab=leads` first. */
export function leadFiltersQuery(filters: LeadFilters, overrides: Partial<LeadFilters> = {}): string {
  const view = { ...filters, ...overrides };
  const params = new URLSearchParams({ tab: "leads" });
  for (const key of Object.keys(defaultLeadFilters) as Array<keyof LeadFilters>) {
    if (view[key] !== defaultLeadFilters[key]) params.set(key, String(view[key]));
  }
  return params.toString();
}

export const leadPanelActionSchema = z.object({
  intent: z.enum(leadPanelIntents, { error: "La acción solicitada no es válida." }),
  leadId: z.uuid({ error: "El lead indicado no es válido." }),
  // The status the card showed: the change applies only if nobody changed the lead since (no lost update).
  from: z.enum(leadStatuses, { error: "Recarga la página: el estado del lead no es válido." }),
});
