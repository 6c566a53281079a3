/**
 * The waitlist (issue 23, DESIGN decision 24): its vocabulary and rules. Pure.
 */
import { isoWeekday } from "./clinic-time";

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

/*
 * The rules (issue 23, ADR 040): which entries a freed slot matches, how they are offered in batches, when the
 * offers stop.
 */

/** How many entries one batch offers a slot to, and how long the next batch waits. */
export const WAITLIST_BATCH_SIZE = 5;
export const WAITLIST_BATCH_INTERVAL_MINUTES = 10;
/** A slot is offered (and worth recording) only while it is at least this far away. */
export const WAITLIST_CUTOFF_HOURS = 2;
/** The afternoon begins at this clinic time: mañana is before it, tarde from it. */
export const AFTERNOON_STARTS_AT = "13:00";

const HOUR_MS = 3_600_000;

export const dayPartLabels: Record<DayPart, string> = {
  manana: "Mañana (antes de las 13:00)",
  tarde: "Tarde (desde las 13:00)",
};

/** Spanish weekday names by ISO number (1 = lunes). The clinic works Monday to Friday by default. */
export const weekdayLabels: Record<number, string> = {
  1: "Lunes",
  2: "Martes",
  3: "Miércoles",
  4: "Jueves",
  5: "Viernes",
  6: "Sábado",
  7: "Domingo",
};

export const waitlistEntryStatusLabels: Record<WaitlistEntryStatus, string> = {
  activa: "Activa",
  cumplida: "Cumplida",
  retirada: "Retirada",
  vencida: "Vencida",
};

export const freedSlotStatusLabels: Record<FreedSlotStatus, string> = {
  abierta: "Abierta",
  tomada: "Tomada",
  cerrada: "Cerrada",
};

export const waitlistOfferStatusLabels: Record<WaitlistOfferStatus, string> = {
  enviada: "Enviada",
  tomada: "Tomada",
  perdida: "Perdida",
};

/** The part of the day a clinic time ("HH:MM") falls in. */
export function dayPartOf(time: string): DayPart {
  return time < AFTERNOON_STARTS_AT ? "manana" : "tarde";
}

/** Whether a slot starting at `startsAt` may still be offered (or recorded as freed) at `now`. */
export function isFarEnoughToOffer(startsAt: Date, now: Date): boolean {
  return startsAt.getTime() - now.getTime() >= WAITLIST_CUTOFF_HOURS * HOUR_MS;
}

/** Until when an offer's link may be used: the cutoff before the slot. */
export function offerExpiresAt(startsAt: Date): Date {
  return new Date(startsAt.getTime() - WAITLIST_CUTOFF_HOURS * HOUR_MS);
}

/** When the batch after one sent at `now` may go. */
export function nextBatchAt(now: Date): Date {
  return new Date(now.getTime() + WAITLIST_BATCH_INTERVAL_MINUTES * 60_000);
}

export type SlotOfferDecision = { offer: true } | { offer: false; reason: "cerca" | "ocupada" };

/** Offers stop when the slot is less than two hours away, or when an appointment now takes its time. */
export function slotOfferDecision(
  slot: { startsAt: Date },
  stillFree: boolean,
  now: Date,
): SlotOfferDecision {
  if (!isFarEnoughToOffer(slot.startsAt, now)) return { offer: false, reason: "cerca" };
  if (!stillFree) return { offer: false, reason: "ocupada" };
  return { offer: true };
}

/** What matching needs of a freed slot, as clinic facts. */
export interface FreedSlotFacts {
  dentistId: string;
  startsAt: Date;
  endsAt: Date;
  /** Clinic date and time of the start. */
  date: string;
  time: string;
  freedByPatientId: string | null;
}

/** What matching needs of a waitlist entry. */
export interface WaitlistEntryFacts {
  patientId: string;
  dentistId: string | null;
  /** 1 = Monday … 7; empty = any weekday. */
  weekdays: readonly number[];
  dayParts: readonly string[];
  earliestDate: string;
  untilDate: string;
  /** The treatment's duration. */
  durationMinutes: number;
  /** The start of the booking the patient wants to move earlier, when linked: the slot must be before it. */
  currentStartsAt?: Date | null;
}

export interface MatchContext {
  /** The start times ("HH:MM") where the entry's treatment fits in the slot's dentist's schedule that day. */
  startTimes: readonly string[];
  /** The entry's patient's live appointments (any dentist) that could overlap. */
  patientBusy: readonly { startsAt: Date; endsAt: Date }[];
}

/**
 * Whether a freed slot suits an entry: the dentist they asked for (or any), a weekday and part of the day they
 * chose, a date in their window, their treatment fits in the freed time at a start the schedule offers, it is
 * earlier than the booking they want to move, they did not free it themselves and they are not busy then.
 */
export function entryMatchesSlot(
  entry: WaitlistEntryFacts,
  slot: FreedSlotFacts,
  context: MatchContext,
): boolean {
  if (entry.dentistId !== null && entry.dentistId !== slot.dentistId) return false;
  if (slot.freedByPatientId !== null && slot.freedByPatientId === entry.patientId) return false;
  if (slot.date < entry.earliestDate || slot.date > entry.untilDate) return false;
  if (entry.weekdays.length > 0 && !entry.weekdays.includes(isoWeekday(slot.date))) return false;
  if (!entry.dayParts.includes(dayPartOf(slot.time))) return false;
  const endsAt = new Date(slot.startsAt.getTime() + entry.durationMinutes * 60_000);
  if (endsAt.getTime() > slot.endsAt.getTime()) return false;
  if (!context.startTimes.includes(slot.time)) return false;
  if (entry.currentStartsAt && entry.currentStartsAt.getTime() <= slot.startsAt.getTime()) return false;
  return !context.patientBusy.some(
    (busy) => busy.startsAt.getTime() < endsAt.getTime() && slot.startsAt.getTime() < busy.endsAt.getTime(),
  );
}

/**
 * The next batch: the first `WAITLIST_BATCH_SIZE` matching entries, in the order they joined, that were not offered
 * this slot yet.
 */
export function nextBatch<T extends { id: string; createdAt: Date }>(
  matching: readonly T[],
  alreadyOffered: ReadonlySet<string>,
  size = WAITLIST_BATCH_SIZE,
): T[] {
  return matching
    .filter((entry) => !alreadyOffered.has(entry.id))
    .toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    .slice(0, size);
}

/** Whether an entry's last date has passed (it becomes 'vencida'). */
export function isEntryExpired(untilDate: string, today: string): boolean {
  return untilDate < today;
}

/** The public page of an offer's single-use link. */
export function waitlistOfferPath(token: string): string {
  return `/lista-de-espera/oferta/${token}`;
}

/** What a later claimer reads, exactly. */
export const SLOT_ALREADY_TAKEN = "Esta hora ya fue tomada";
