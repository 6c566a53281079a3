/**
 * The lead pipeline: which status changes staff may make, which of them count as contacting
 * the person, and the reasons a lead is lost. Pure; client-safe. ADR 025 explains the choices:
 * - Forward moves among the open stages may skip steps (a first call can qualify and book the person at once), but
 *   `converted` is reached only from `scheduled`: a conversion is an attended appointment, which must be booked.
 * - No backward moves: the history is the record, and the funnel's stages are cumulative.
 * - `lost` from any open status, always with a reason from the fixed list.
 * - `converted` is final. A `lost` lead can be reopened, to `contacted` only (the person must be qualified again).
 */

export const leadStatuses = ["new", "contacted", "qualified", "scheduled", "converted", "lost"] as const;
export type LeadStatus = (typeof leadStatuses)[number];

/** The open stages in their order; `converted` and `lost` close a lead. */
const openOrder = ["new", "contacted", "qualified", "scheduled"] as const satisfies readonly LeadStatus[];
export type OpenLeadStatus = (typeof openOrder)[number];

export const leadStatusLabels: Record<LeadStatus, string> = {
  new: "Nuevo",
  contacted: "Contactado",
  qualified: "Calificado",
  scheduled: "Agendado",
  converted: "Convertido",
  lost: "Perdido",
};

/** What the button that makes each move says. */
export const transitionLabels: Record<LeadStatus, string> = {
  new: "Nuevo",
  contacted: "Marcar contactado",
  qualified: "Marcar calificado",
  scheduled: "Marcar agendado",
  converted: "Marcar convertido",
  lost: "Marcar perdido",
};

export const REOPEN_LABEL = "Reabrir (contactado)";

export const lostReasons = [
  "no-responde",
  "otra-clinica",
  "precio",
  "no-califica",
  "duplicado",
  "otro",
] as const;
export type LostReason = (typeof lostReasons)[number];

export const lostReasonLabels: Record<LostReason, string> = {
  "no-responde": "No responde",
  "otra-clinica": "Eligió otra clínica",
  precio: "Precio",
  "no-califica": "No califica",
  duplicado: "Duplicado",
  otro: "Otro",
};

export function isLeadStatus(value: string): value is LeadStatus {
  return (leadStatuses as readonly string[]).includes(value);
}

export function isLostReason(value: string): value is LostReason {
  return (lostReasons as readonly string[]).includes(value);
}

export function isOpenStatus(status: LeadStatus): status is OpenLeadStatus {
  return (openOrder as readonly string[]).includes(status);
}

/** Every status a lead in `from` may move to, in the order the buttons are shown. */
export function allowedTransitions(from: LeadStatus): LeadStatus[] {
  if (from === "converted") return [];
  if (from === "lost") return ["contacted"];
  const index = openOrder.indexOf(from);
  const forward: LeadStatus[] = openOrder.slice(index + 1);
  if (from === "scheduled") forward.push("converted");
  return [...forward, "lost"];
}

export function canTransition(from: LeadStatus, to: LeadStatus): boolean {
  return allowedTransitions(from).includes(to);
}

/**
 * Moving to these stamps `last_contact_at` (the panel may set contacted or scheduled on any lead, and both
 * are contacts) and, the first time, `first_contact_at` ('Tiempo Respuesta'). Qualified,
 * converted and lost do not (ADR 025: a lead qualified straight from new reaches the 'Contacto' stage of the funnel,
 * which is cumulative, but has no response time until a contact is recorded).
 */
export function stampsContact(to: LeadStatus): boolean {
  return to === "contacted" || to === "scheduled";
}

/**
 * The funnel stage each status stands for (0 Captura … 4 Conversión); `lost` reaches none. The database keeps
 * `leads.furthest_stage` as the highest of these a lead ever had (the `leads_furthest_stage` trigger, the same
 * numbers as `lead_stage_rank` in migration 0016), so the funnel counts a lost lead in every stage it reached.
 */
export const stageRanks: Record<LeadStatus, number> = {
  new: 0,
  contacted: 1,
  qualified: 2,
  scheduled: 3,
  converted: 4,
  lost: 0,
};

export const FUNNEL_STAGE = { contacted: 1, qualified: 2, scheduled: 3, converted: 4 } as const;

/** The furthest stage after moving to `to` from a lead that had reached `furthest`: it never goes down. */
export function furthestStageAfter(furthest: number, to: LeadStatus): number {
  return Math.max(furthest, stageRanks[to]);
}

export type TransitionCheck =
  { ok: true; stampsContact: boolean; reason: LostReason | null } | { ok: false; error: string };

/** The whole rule for one requested move: allowed, with a reason exactly when the lead is lost. */
export function checkTransition(from: LeadStatus, to: LeadStatus, reason?: string | null): TransitionCheck {
  if (!canTransition(from, to)) {
    return {
      ok: false,
      error: `Un lead «${leadStatusLabels[from]}» no puede pasar a «${leadStatusLabels[to]}».`,
    };
  }
  if (to === "lost") {
    if (!reason || !isLostReason(reason)) {
      return { ok: false, error: "Elige el motivo por el que se perdió el lead." };
    }
    return { ok: true, stampsContact: false, reason };
  }
  return { ok: true, stampsContact: stampsContact(to), reason: null };
}

/**
 * 'Marcar contactado' on a card (allowed on any lead): a new lead becomes contacted,
 * a lost one is reopened as contacted, and a lead further along keeps its stage but records the contact (its last
 * contact is stamped). A converted lead is final: null.
 */
export function contactOutcome(from: LeadStatus): LeadStatus | null {
  if (from === "converted") return null;
  if (from === "new" || from === "lost") return "contacted";
  return from;
}
