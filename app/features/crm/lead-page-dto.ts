import type { ActionResult } from "~/lib/base/action-result";
import type { LeadContact } from "./lead-list-dto";

/** What the lead page's loader sends (client-safe types; ADR 025). */

export interface LeadPageAction {
  to: string;
  label: string;
  /** Moving to 'lost' asks for a reason. */
  needsReason: boolean;
}

export type HistoryKind =
  | "created"
  | "status"
  | "note"
  | "assignment"
  | "duplicate"
  | "whatsapp-inbound"
  | "whatsapp-outbound"
  | "dentalink";

export interface HistoryEntry {
  id: string;
  kind: HistoryKind;
  at: string;
  atLabel: string;
  title: string;
  /** Plain text (a note, a message): rendered as text, never as HTML. */
  body: string | null;
  actorName: string | null;
  /** A short status (a message's delivery, a sync's outcome) and its tone. */
  badge: { label: string; tone: "neutral" | "info" | "good" | "bad" } | null;
}

export interface LeadPageData {
  lead: LeadContact & {
    treatmentLabel: string;
    urgencyLabel: string;
    budgetLabel: string;
    sourceLabel: string;
    message: string;
    score: number;
    level: string;
    levelLabel: string;
    /** The person objected to profiling (ADR 037): show `PROFILING_OBJECTED_LABEL`, not the level and score. */
    profilingObjected: boolean;
    reasons: string[];
    status: string;
    statusLabel: string;
    lostReasonLabel: string | null;
    createdAt: string;
    createdAtLabel: string;
    createdAgo: string;
    lastContactAt: string | null;
    lastContactAgo: string | null;
    firstContactAtLabel: string | null;
    consentAtLabel: string;
    /** A repeated request arrived since the last contact ('Actualizado'). */
    updated: { at: string; ago: string } | null;
    assignee: { id: string; name: string } | null;
  };
  actions: LeadPageAction[];
  /** 'Marcar contactado' is offered (every status but converted). */
  canContact: boolean;
  /**
   * The viewer may change this lead (domain/lead-permissions.ts): without it the page shows no move, contact,
   * booking or note, and says why.
   */
  canChange: boolean;
  lostReasons: Array<{ value: string; label: string }>;
  scheduleHref: string;
  history: HistoryEntry[];
  viewer: {
    id: string;
    isAdmin: boolean;
    isAsesor: boolean;
    away: boolean;
  };
  /** Active asesores (reassign select and their availability), for admins only; empty otherwise. */
  asesores: Array<{ id: string; name: string; away: boolean }>;
}

export type LeadPageActionResult = ActionResult<{ status?: string }>;
