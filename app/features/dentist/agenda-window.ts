import { addDays, clinicDate, startOfClinicDay } from "~/domain/clinic-time";
import { formatDayHeading } from "~/domain/format";

/**
 * The dentist agenda's days: today in the clinic's zone and the following days, as calendar dates and as the UTC
 * instants that bound them (the clinic's days, not UTC's). Pure; the zone arithmetic is `domain/clinic-time`'s.
 */

export const AGENDA_DAYS = 7;

export interface AgendaWindow {
  /** Today's date in the zone, "YYYY-MM-DD". */
  today: string;
  /** `length` consecutive calendar dates starting today. */
  days: string[];
  /** Inclusive start: the first instant of today in the zone. */
  start: Date;
  /** Exclusive end: the first instant of the day after the last one. */
  end: Date;
}

/** Today (in the clinic's zone, not UTC) and the next `length - 1` days. */
export function agendaWindow(now: Date, length: number = AGENDA_DAYS): AgendaWindow {
  const today = clinicDate(now);
  const days = Array.from({ length }, (_, index) => addDays(today, index));
  return {
    today,
    days,
    start: startOfClinicDay(today),
    end: startOfClinicDay(addDays(today, length)),
  };
}

/** "2025-11-24" → "lunes, 24 de noviembre". */
export const dayHeading = formatDayHeading;
