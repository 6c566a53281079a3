import { CLINIC_TIME_ZONE } from "~/domain/format";

/**
 * The dentist agenda's days: today in the clinic's zone and the following days, as calendar dates and as the UTC
 * instants that bound them (DESIGN decision 8). Pure; offsets come from Intl, so daylight-saving changes are
 * handled by the runtime's time-zone data.
 */

export const AGENDA_DAYS = 7;

const DAY_MS = 86_400_000;

const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(instant: Date, timeZone: string) {
  let formatter = partFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    partFormatters.set(timeZone, formatter);
  }
  const values: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant)) {
    if (part.type !== "literal") values[part.type] = Number(part.value);
  }
  return {
    year: values.year ?? 0,
    month: values.month ?? 1,
    day: values.day ?? 1,
    // Some ICU versions write midnight as 24 even with h23.
    hour: (values.hour ?? 0) % 24,
    minute: values.minute ?? 0,
    second: values.second ?? 0,
  };
}

/** The zone's offset from UTC at an instant, in milliseconds (Santiago: -3 h in summer, -4 h in winter). */
export function zoneOffsetMs(instant: Date, timeZone: string = CLINIC_TIME_ZONE): number {
  const p = partsIn(instant, timeZone);
  const wallClockAsUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const wholeSeconds = Math.floor(instant.getTime() / 1000) * 1000;
  return wallClockAsUtc - wholeSeconds;
}

const pad = (value: number) => String(value).padStart(2, "0");

/** The calendar date ("2025-11-24") an instant falls on in the zone. */
export function calendarDateIn(instant: Date, timeZone: string = CLINIC_TIME_ZONE): string {
  const p = partsIn(instant, timeZone);
  return `${String(p.year).padStart(4, "0")}-${pad(p.month)}-${pad(p.day)}`;
}

function parseIsoDate(isoDate: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) throw new RangeError(`Fecha inválida: ${isoDate}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

/** Calendar arithmetic on "YYYY-MM-DD" dates (no zone involved). */
export function addCalendarDays(isoDate: string, days: number): string {
  return new Date(parseIsoDate(isoDate) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The first instant of a calendar date in the zone. Usually local midnight; on a day whose midnight does not exist
 * (Chile moves its clocks from 00:00 to 01:00 on the first Sunday of September) it is the moment of the change.
 */
export function startOfDayIn(isoDate: string, timeZone: string = CLINIC_TIME_ZONE): Date {
  const wallMidnight = parseIsoDate(isoDate);
  // Local midnight is wallMidnight minus the offset in force then; try the offsets found around that moment and
  // keep the earliest candidate that really falls on the date.
  const candidates = new Set<number>();
  for (const probeHours of [-12, 0, 12, 24]) {
    const probe = new Date(wallMidnight + probeHours * 3_600_000);
    candidates.add(wallMidnight - zoneOffsetMs(probe, timeZone));
  }
  const onTheDate = [...candidates].filter(
    (candidate) => calendarDateIn(new Date(candidate), timeZone) === isoDate,
  );
  if (onTheDate.length === 0) {
    throw new RangeError(`No se pudo calcular el inicio del día ${isoDate} en ${timeZone}`);
  }
  const first = Math.min(...onTheDate);
  return new Date(first);
}

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

/** Today (in the zone, not UTC) and the next `length - 1` days. */
export function agendaWindow(
  now: Date,
  timeZone: string = CLINIC_TIME_ZONE,
  length: number = AGENDA_DAYS,
): AgendaWindow {
  const today = calendarDateIn(now, timeZone);
  const days = Array.from({ length }, (_, index) => addCalendarDays(today, index));
  return {
    today,
    days,
    start: startOfDayIn(today, timeZone),
    end: startOfDayIn(addCalendarDays(today, length), timeZone),
  };
}

const headingFormatter = new Intl.DateTimeFormat("es-CL", {
  weekday: "long",
  day: "numeric",
  month: "long",
  timeZone: "UTC",
});

/** "2025-11-24" → "lunes, 24 de noviembre". */
export function dayHeading(isoDate: string): string {
  return headingFormatter.format(new Date(parseIsoDate(isoDate)));
}
