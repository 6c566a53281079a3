import type { Change } from "~/domain/analytics-period";
import type { ActionResult } from "~/lib/action-result";
import type { LevelFilter, StatusFilter } from "./lead-panel-options";

/** What the funnel loader sends to the page (client-safe types). */

export interface LeadCounts {
  total: number;
  hot: number;
  warm: number;
  cold: number;
  new: number;
  /** Funnel stage "Contacto": contacted, qualified, scheduled or converted. */
  contactedStage: number;
  /** Funnel stage "Calificación": qualified, scheduled or converted. */
  qualifiedStage: number;
  converted: number;
  whatsapp: number;
  /** Average minutes from creation to the last contact, over leads that were contacted; null when none was. */
  avgResponseMinutes: number | null;
}

export interface StatCard {
  key: string;
  label: string;
  value: string;
  hint: string;
  /** Against the previous period of equal length; absent when the comparison is off. */
  change?: Change;
  /** For 'Tiempo Respuesta' a rise is bad news; for the others, good. */
  lowerIsBetter?: boolean;
}

export interface FunnelStage {
  key: string;
  title: string;
  channel: string;
  count: number;
  /** Share of the first stage, 0..1. */
  share: number;
}

export interface LeadCard {
  id: string;
  name: string;
  firstName: string;
  phone: string;
  phoneHref: string;
  whatsappHref: string;
  email: string | null;
  level: string;
  levelLabel: string;
  score: number;
  status: string;
  statusLabel: string;
  treatmentLabel: string;
  urgencyLabel: string;
  budgetLabel: string;
  message: string;
  sourceLabel: string;
  createdAt: string;
  createdAgo: string;
  lastContactAgo: string | null;
}

export interface LeadPanelData {
  filters: { q: string; level: LevelFilter; status: StatusFilter };
  leads: LeadCard[];
  /** More leads matched than the page shows. */
  truncated: boolean;
  limit: number;
}

export type LeadPanelActionResult = ActionResult<{ leadId: string; status: string }>;
