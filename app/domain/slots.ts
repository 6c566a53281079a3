import { addDays, clinicInstant, isoWeekday, minutesOfDay, timeFromMinutes } from "./clinic-time";

/** A dentist's working block on a weekday, clinic-local "HH:MM" (1 = Monday … 7 = Sunday). */
export interface ScheduleBlock {
  weekday: number;
  startsAt: string;
  endsAt: string;
}

export interface BusyInterval {
  startsAt: Date;
  endsAt: Date;
}

export const SLOT_STEP_MINUTES = 30;

/**
 * The clinic's default week (DESIGN decision 7, ADR 005): Monday to Friday, slots from 09:00 to 11:30 and from
 * 14:00 to 17:00 every 30 minutes, i.e. blocks 09:00–12:00 and 14:00–17:30.
 */
export const DEFAULT_WEEK: readonly ScheduleBlock[] = [1, 2, 3, 4, 5].flatMap((weekday) => [
  { weekday, startsAt: "09:00", endsAt: "12:00" },
  { weekday, startsAt: "14:00", endsAt: "17:30" },
]);

/** The blocks a dentist works: their own schedule, or the clinic's default week when they have none. */
export function workingBlocks(own: readonly ScheduleBlock[] | undefined): readonly ScheduleBlock[] {
  return own && own.length > 0 ? own : DEFAULT_WEEK;
}

/** Start times ("HH:mm") on `date` where an appointment of `durationMinutes` fits inside a block. */
export function slotTimes(date: string, blocks: readonly ScheduleBlock[], durationMinutes: number): string[] {
  const weekday = isoWeekday(date);
  const times: string[] = [];
  for (const block of blocks.filter((candidate) => candidate.weekday === weekday)) {
    const end = minutesOfDay(block.endsAt);
    for (
      let start = minutesOfDay(block.startsAt);
      start + durationMinutes <= end;
      start += SLOT_STEP_MINUTES
    ) {
      times.push(timeFromMinutes(start));
    }
  }
  return [...new Set(times)].toSorted();
}

/** True when the day has no working block at all (weekends, by default). */
export function isClosedDay(date: string, blocks: readonly ScheduleBlock[]): boolean {
  return !blocks.some((block) => block.weekday === isoWeekday(date));
}

export function overlaps(a: BusyInterval, b: BusyInterval): boolean {
  return a.startsAt.getTime() < b.endsAt.getTime() && b.startsAt.getTime() < a.endsAt.getTime();
}

/** Free slots of one dentist on `date`, from `earliest` on. */
export function freeSlots(options: {
  date: string;
  blocks: readonly ScheduleBlock[];
  durationMinutes: number;
  busy: readonly BusyInterval[];
  earliest: Date;
}): Array<{ time: string; startsAt: Date; endsAt: Date }> {
  return slotTimes(options.date, options.blocks, options.durationMinutes)
    .map((time) => {
      const startsAt = clinicInstant(options.date, time);
      return { time, startsAt, endsAt: new Date(startsAt.getTime() + options.durationMinutes * 60_000) };
    })
    .filter((slot) => slot.startsAt.getTime() >= options.earliest.getTime())
    .filter((slot) => !options.busy.some((interval) => overlaps(slot, interval)));
}

/** The next `count` open days from `from` (inclusive). */
export function openDays(
  from: string,
  count: number,
  blocks: readonly ScheduleBlock[],
  maxScan = 120,
): string[] {
  const days: string[] = [];
  for (let offset = 0; offset < maxScan && days.length < count; offset += 1) {
    const date = addDays(from, offset);
    if (!isClosedDay(date, blocks)) days.push(date);
  }
  return days;
}
