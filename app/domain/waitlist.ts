/**
 * The waitlist (issue 23, DESIGN decision 24): its vocabulary. Pure.
 */

/** The parts of the day a patient can choose: mañana (before 13:00) and tarde (from 13:00). */
export const dayParts = ["manana", "tarde"] as const;
export type DayPart = (typeof dayParts)[number];

/** An entry waits ('activa') until it is fulfilled by a claim, withdrawn by the patient or passes its end date. */
export const waitlistEntryStatuses = ["activa", "cumplida", "retirada", "vencida"] as const;
export type WaitlistEntryStatus = (typeof waitlistEntryStatuses)[number];

/** Why a slot became free. */
export const freedSlotReasons = ["cancelacion", "reagendamiento", "pago_vencido", "manual"] as const;
export type FreedSlotReason = (typeof freedSlotReasons)[number];

/** A freed slot is offered while 'abierta'; it ends 'tomada' (claimed), or 'cerrada' (too close, or taken otherwise). */
export const freedSlotStatuses = ["abierta", "tomada", "cerrada"] as const;
export type FreedSlotStatus = (typeof freedSlotStatuses)[number];

/** One offer of one slot to one entry: sent, then claimed (won), or lost to someone else / expired. */
export const waitlistOfferStatuses = ["enviada", "tomada", "perdida"] as const;
export type WaitlistOfferStatus = (typeof waitlistOfferStatuses)[number];

/** Where a patient sees and joins the waitlist (linked from Mis Citas). */
export const WAITLIST_PATH = "/paciente/lista-de-espera";
