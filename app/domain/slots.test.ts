import { describe, expect, it } from "vitest";
import { clinicInstant } from "./clinic-time";
import { DEFAULT_WEEK, freeSlots, isClosedDay, openDays, slotTimes, workingBlocks } from "./slots";

describe("slotTimes", () => {
  it("gives the clinic's default slots for 30-minute treatments", () => {
    expect(slotTimes("2026-11-23", DEFAULT_WEEK, 30)).toEqual([
      "09:00",
      "09:30",
      "10:00",
      "10:30",
      "11:00",
      "11:30",
      "14:00",
      "14:30",
      "15:00",
      "15:30",
      "16:00",
      "16:30",
      "17:00",
    ]);
  });
  it("only offers starts where a longer treatment fits", () => {
    const times = slotTimes("2026-11-23", DEFAULT_WEEK, 90);
    expect(times.at(0)).toBe("09:00");
    expect(times).not.toContain("11:00");
    expect(times).toContain("10:30");
    expect(times.at(-1)).toBe("16:00");
  });
  it("is closed on weekends", () => {
    expect(slotTimes("2026-11-22", DEFAULT_WEEK, 30)).toEqual([]);
    expect(isClosedDay("2026-11-28", DEFAULT_WEEK)).toBe(true);
    expect(isClosedDay("2026-11-27", DEFAULT_WEEK)).toBe(false);
  });
});

describe("freeSlots", () => {
  it("drops taken and past slots", () => {
    const busy = [
      { startsAt: clinicInstant("2026-11-23", "09:30"), endsAt: clinicInstant("2026-11-23", "10:30") },
    ];
    const slots = freeSlots({
      date: "2026-11-23",
      blocks: DEFAULT_WEEK,
      durationMinutes: 30,
      busy,
      earliest: clinicInstant("2026-11-23", "09:00"),
    }).map((slot) => slot.time);
    expect(slots.slice(0, 3)).toEqual(["09:00", "10:30", "11:00"]);
    const later = freeSlots({
      date: "2026-11-23",
      blocks: DEFAULT_WEEK,
      durationMinutes: 30,
      busy: [],
      earliest: clinicInstant("2026-11-23", "16:10"),
    });
    expect(later.map((slot) => slot.time)).toEqual(["16:30", "17:00"]);
  });
  it("a 60-minute treatment does not fit right before a taken slot", () => {
    const busy = [
      { startsAt: clinicInstant("2026-11-23", "10:00"), endsAt: clinicInstant("2026-11-23", "10:30") },
    ];
    const slots = freeSlots({
      date: "2026-11-23",
      blocks: DEFAULT_WEEK,
      durationMinutes: 60,
      busy,
      earliest: clinicInstant("2026-11-23", "00:00"),
    });
    expect(slots.map((slot) => slot.time)).not.toContain("09:30");
    expect(slots.map((slot) => slot.time)).toContain("10:30");
  });
});

it("lists the next open days", () => {
  expect(openDays("2026-11-27", 3, DEFAULT_WEEK)).toEqual(["2026-11-27", "2026-11-30", "2026-12-01"]);
});

describe("workingBlocks", () => {
  it("is the dentist's own schedule when there is one", () => {
    const own = [{ weekday: 6, startsAt: "10:00", endsAt: "13:00" }];
    expect(workingBlocks(own)).toBe(own);
  });

  it("is the clinic's default week for a dentist without blocks", () => {
    expect(workingBlocks(undefined)).toBe(DEFAULT_WEEK);
    expect(workingBlocks([])).toBe(DEFAULT_WEEK);
  });
});
