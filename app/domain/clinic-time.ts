/**
 * The clinic's clock (DESIGN decision 8), the only place that does clinic-zone arithmetic: "today", weekdays,
 * day boundaries and slot times are those of America/Santiago; instants are stored in UTC. Chile moves its clocks
 * at midnight (first Sunday of September forward, first Sunday of April back), so every conversion goes through the
 * runtime's time-zone data (read through @date-fns/tz, DESIGN §2) rather than fixed offsets. Pure.
 */
import { tzOffset } from "@date-fns/tz";
import { CLINIC_TIME_ZONE } from "./clinic-zone";

export { CLINIC_TIME_ZONE };

const DAY_MS = 86_400_000;

/**
 * The zone's offset in minutes from @date-fns/tz, cached per UTC hour: the lookup formats a date through Intl, the
 * costliest call of a portal request, and Chile's clock changes (like every offset change there since 1970) fall on
 * whole UTC hours, so the offset is constant within one. Bounded: cleared when it grows past a few years of hours.
 */
const offsetByUtcHour = new Map<number, number>();

/** Minutes the clinic's clock is ahead of UTC at `instant` (-180 in summer, -240 in winter). */
export function clinicOffsetMinutes(instant: Date): number {
  const hour = Math.floor(instant.getTime() / 3_600_000);
  let offset = offsetByUtcHour.get(hour);
  if (offset === undefined) {
    offset = tzOffset(CLINIC_TIME_ZONE, new Date(hour * 3_600_000));
    if (!Number.isFinite(offset)) throw new RangeError(`Sin datos de zona horaria para ${CLINIC_TIME_ZONE}`);
    if (offsetByUtcHour.size >= 50_000) offsetByUtcHour.clear();
    offsetByUtcHour.set(hour, offset);
  }
  return offset;
}

interface ClockParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The clinic's wall clock at `instant`: the instant shifted by the zone's offset, read in UTC. */
function clockParts(instant: Date): ClockParts {
  const local = new Date(instant.getTime() + clinicOffsetMinutes(instant) * 60_000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
  };
}

const pad = (value: number) => String(value).padStart(2, "0");

/** The clinic's calendar date of an instant, "YYYY-MM-DD". */
export function clinicDate(instant: Date): string {
  const p = clockParts(instant);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** The clinic's wall-clock time of an instant, "HH:mm". */
export function clinicTime(instant: Date): string {
  const p = clockParts(instant);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

function parseDate(date: string): [number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`Fecha inválida: ${date}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    throw new RangeError(`Fecha inválida: ${date}`);
  return [year, month, day];
}

function parseTime(time: string): [number, number] {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!match) throw new RangeError(`Hora inválida: ${time}`);
  return [Number(match[1]), Number(match[2])];
}

/**
 * The instant at which the clinic's clock shows `date` `time`. A time skipped by the spring change (e.g. 00:00 on
 * the first Sunday of September) resolves to the first instant after the gap; a repeated autumn time resolves to
 * its first occurrence.
 */
export function clinicInstant(date: string, time: string): Date {
  const [year, month, day] = parseDate(date);
  const [hour, minute] = parseTime(time);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const offsets = new Set([
    clinicOffsetMinutes(new Date(wall - DAY_MS)),
    clinicOffsetMinutes(new Date(wall)),
    clinicOffsetMinutes(new Date(wall + DAY_MS)),
  ]);
  const candidates = [...offsets].map((offset) => wall - offset * 60_000).toSorted((a, b) => a - b);
  const exact = candidates.find((candidate) => {
    const shown = new Date(candidate);
    return clinicDate(shown) === date && clinicTime(shown) === time;
  });
  return new Date(exact ?? candidates.at(-1)!);
}

/**
 * The first instant of a clinic calendar date: usually local midnight; on the first Sunday of September, whose
 * midnight does not exist, the moment of the change (01:00 summer time).
 */
export function startOfClinicDay(date: string): Date {
  return clinicInstant(date, "00:00");
}

/** The instants that bound a clinic calendar date: `[start, end)`, 23, 24 or 25 hours long. */
export function clinicDayBounds(date: string): { start: Date; end: Date } {
  return { start: startOfClinicDay(date), end: startOfClinicDay(addDays(date, 1)) };
}

/** "YYYY-MM-DD" plus n calendar days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = parseDate(date);
  const result = new Date(Date.UTC(year, month - 1, day + days));
  return `${result.getUTCFullYear()}-${pad(result.getUTCMonth() + 1)}-${pad(result.getUTCDate())}`;
}

/** ISO weekday of a calendar date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const [year, month, day] = parseDate(date);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** "HH:mm" → minutes after midnight. */
export function minutesOfDay(time: string): number {
  const [hour, minute] = parseTime(time);
  return hour * 60 + minute;
}

export function timeFromMinutes(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
