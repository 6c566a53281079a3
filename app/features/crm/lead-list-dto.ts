import type { ActionResult } from "~/lib/base/action-result";
import type { LeadFilters } from "./lead-panel-schema";

/** The counters above the lead list (from `lead_tallies`). */
export interface LeadCounters {
  total: number;
  hot: number;
  warm: number;
  cold: number;
  new: number;
  converted: number;
}

/** Who a lead is and how to reach them: the lead list's cards and the lead page both show it. */
export interface LeadContact {
  id: string;
  name: string;
  firstName: string;
  phone: string;
  phoneHref: string;
  whatsappHref: string;
  email: string | null;
}

export interface LeadCard extends LeadContact {
  level: string;
  levelLabel: string;
  score: number;
  /** The person objected to profiling (ADR 037): show `PROFILING_OBJECTED_LABEL`, not the level and score. */
  profilingObjected: boolean;
  status: string;
  statusLabel: string;
  treatmentLabel: string;
  urgencyLabel: string;
  budgetLabel: string;
  message: string;
  sourceLabel: string;
  createdAt: string;
  createdAgo: string;
  /** ISO instant of the last contact (the age is re-computed in the browser every minute); null if none. */
  lastContactAt: string | null;
  lastContactAgo: string | null;
  /** The staff member who owns the lead; null when nobody does. */
  assigneeName: string | null;
  /** The person asked again after the last contact (a merged duplicate): the card shows 'Actualizado'. */
  updatedSinceContact: boolean;
  /** 'Marcar contactado' applies (every stage but converted: `contactOutcome`). */
  canContact: boolean;
  /** The viewer may change this lead (domain/lead-permissions.ts); otherwise the card shows no change. */
  canChange: boolean;
}

export interface AssigneeOption {
  value: string;
  label: string;
}

export interface LeadPanelData {
  /** Total, Calientes, Tibios, Fríos, Nuevos, Convertidos over every lead. */
  counters: { total: number; hot: number; warm: number; cold: number; new: number; converted: number };
  filters: LeadFilters;
  /** Labels of the URL parameters that were invalid and replaced by their default (shown as a notice). */
  ignored: string[];
  leads: LeadCard[];
  /** Leads matching the view; a lower bound when `totalCapped`. */
  total: number;
  /** More than `total` leads match (the count stops there; see lead-list-service). */
  totalCapped: boolean;
  page: number;
  /** The last page (a lower bound when `totalCapped`). */
  pageCount: number;
  pageSize: number;
  hasNextPage: boolean;
  /** More leads follow but this is the deepest page the panel serves (MAX_LEAD_PAGE). */
  lastPageReached: boolean;
  assignees: AssigneeOption[];
  /** The query string of the view, for the export link and the page links. */
  query: string;
}

export type LeadPanelActionResult = ActionResult<{ leadId: string; status: string }>;
