/**
 * The legal clock of a data-subject request (Ley 19.628 as amended by Ley 21.719, in force 1 December 2026). Pure.
 *
 * What the law says, and how it is read here (ADR 037):
 * - Art. 11: the controller acknowledges receipt and answers "dentro de treinta días corridos" from the request's
 *   receipt ("ingreso"); the term may be extended "por una sola vez, hasta por igual período" (30 more calendar
 *   days). A refusal, total or partial, gives its reasons and tells the person they may complain to the Agencia de
 *   Protección de Datos Personales within 30 business days ("treinta días hábiles"). With no answer in time the
 *   person may complain to the Agency directly.
 * - Art. 8 ter / art. 11: blocking asked together with rectification, erasure or objection is answered within 2
 *   business days, and until it is answered the data of the request is not processed.
 * - Código Civil art. 48: a term of days is of whole days and runs until midnight of its last day; the day of
 *   receipt is not counted. A request received on 1 March is due by the end of 31 March (America/Santiago).
 *
 * Readings chosen where the text leaves room, each the one that protects the person:
 * - The clock of the public entry runs from the moment the form was sent, not from the later proof of control
 *   (the proof completes the request; it does not move its receipt).
 * - The extension is the full 30 days at most, only once, only while the first term has not run out, and only with
 *   a reason that is sent to the person.
 * - Blocking is granted at once, at receipt: the 2-business-day answer is then always in time.
 * - Days are calendar days of America/Santiago (the clinic's zone, DESIGN decision 8), so a daylight-saving change
 *   never makes a day of 23 or 25 hours count as anything but one day.
 */
import { addDays, clinicDate, startOfClinicDay } from "./clinic-time";

/** Art. 11: the answer is due within this many calendar days of receipt. */
export const ANSWER_DAYS = 30;
/** Art. 11: the one extension, at most this many calendar days more. */
export const EXTENSION_DAYS = 30;
/** Art. 11: the person may complain to the Agency within this many business days of a refusal. */
export const COMPLAINT_BUSINESS_DAYS = 30;
/** Art. 8 ter: a request to block is answered within this many business days. */
export const BLOCKING_ANSWER_BUSINESS_DAYS = 2;
/** The admin dashboard's "esta semana": due within this many days (0 = today). */
export const DUE_SOON_DAYS = 7;
/** The privacy contact's daily e-mail goes out while any request is due within this many days. */
export const DIGEST_DAYS = 5;

const DAY_MS = 86_400_000;

/** The instant a term of `days` calendar days that starts on `date` ends: midnight after its last day. */
function endOfTerm(date: string, days: number): Date {
  return startOfClinicDay(addDays(date, days + 1));
}

/** The last calendar day (Santiago) on which a term that ends at `dueAt` may still be met. */
export function dueDate(dueAt: Date): string {
  return clinicDate(new Date(dueAt.getTime() - 1));
}

/** When the answer to a request received at `receivedAt` is due: the end of the 30th day after the day of receipt. */
export function answerDueAt(receivedAt: Date): Date {
  return endOfTerm(clinicDate(receivedAt), ANSWER_DAYS);
}

/** The due instant after the one extension: 30 more calendar days after the last day of the first term. */
export function extendedDueAt(dueAt: Date): Date {
  return endOfTerm(dueDate(dueAt), EXTENSION_DAYS);
}

export type ExtensionVerdict = "allowed" | "already_extended" | "term_over";

/** Whether the term may be extended now: once, and only while the first term runs. */
export function extensionVerdict(
  request: { dueAt: Date; extendedAt: Date | null },
  now: Date,
): ExtensionVerdict {
  if (request.extendedAt !== null) return "already_extended";
  if (now.getTime() >= request.dueAt.getTime()) return "term_over";
  return "allowed";
}

/** Calendar days (Santiago) from `from` to `to`, both "YYYY-MM-DD"; negative when `to` is earlier. */
function utcDay(date: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day);
}

export function calendarDaysBetween(from: string, to: string): number {
  const parse = utcDay;
  return Math.round((parse(to) - parse(from)) / DAY_MS);
}

export interface ClockReading {
  /** The last day of the term, "YYYY-MM-DD" (Santiago). */
  dueDate: string;
  /** Calendar days from today to the last day: 0 on the last day itself, negative once overdue. */
  daysLeft: number;
  overdue: boolean;
  /** Due within `soonDays` days (0 = today) and not overdue. */
  dueSoon: boolean;
}

/** Where a request stands against its term at `now`. */
export function readClock(dueAt: Date, now: Date, soonDays = DUE_SOON_DAYS): ClockReading {
  const last = dueDate(dueAt);
  const daysLeft = calendarDaysBetween(clinicDate(now), last);
  const overdue = now.getTime() >= dueAt.getTime();
  return { dueDate: last, daysLeft, overdue, dueSoon: !overdue && daysLeft <= soonDays };
}

/** The clock in words, for the queue and the person's list: "Vencida", "Vence hoy", "1 día", "12 días". */
export function clockLabel(reading: Pick<ClockReading, "daysLeft" | "overdue">): string {
  if (reading.overdue) {
    const late = Math.max(1, -reading.daysLeft);
    return reading.daysLeft < 0 ? `Vencida (hace ${late} ${late === 1 ? "día" : "días"})` : "Vencida";
  }
  if (reading.daysLeft === 0) return "Vence hoy";
  return reading.daysLeft === 1 ? "1 día" : `${reading.daysLeft} días`;
}
