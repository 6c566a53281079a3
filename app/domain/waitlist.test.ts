import { describe, expect, it } from "vitest";
import { clinicInstant } from "./clinic-time";
import { DEFAULT_WEEK, slotTimes } from "./slots";
import {
  dayPartOf,
  entryMatchesSlot,
  isEntryExpired,
  isFarEnoughToOffer,
  nextBatch,
  nextBatchAt,
  offerExpiresAt,
  slotOfferDecision,
  WAITLIST_BATCH_SIZE,
  type FreedSlotFacts,
  type WaitlistEntryFacts,
} from "./waitlist";

// Monday 2026-11-30, 10:00 with Dr. A for 60 minutes, freed by patient "b".
function slot(overrides: Partial<FreedSlotFacts> = {}): FreedSlotFacts {
  const date = overrides.date ?? "2026-11-30";
  const time = overrides.time ?? "10:00";
  const startsAt = clinicInstant(date, time);
  return {
    dentistId: "dr-a",
    startsAt,
    endsAt: new Date(startsAt.getTime() + 60 * 60_000),
    date,
    time,
    freedByPatientId: "b",
    ...overrides,
  };
}

const entry = (overrides: Partial<WaitlistEntryFacts> = {}): WaitlistEntryFacts => ({
  patientId: "a",
  dentistId: null,
  weekdays: [],
  dayParts: ["manana", "tarde"],
  earliestDate: "2026-11-27",
  untilDate: "2026-12-31",
  durationMinutes: 60,
  ...overrides,
});

function context(
  freed: FreedSlotFacts,
  durationMinutes = 60,
  patientBusy: { startsAt: Date; endsAt: Date }[] = [],
) {
  return { startTimes: slotTimes(freed.date, DEFAULT_WEEK, durationMinutes), patientBusy };
}

describe("entryMatchesSlot", () => {
  it("matches an entry for any dentist, any weekday, both parts of the day", () => {
    const freed = slot();
    expect(entryMatchesSlot(entry(), freed, context(freed))).toBe(true);
  });

  it("is never offered to the patient who freed it", () => {
    const freed = slot({ freedByPatientId: "a" });
    expect(entryMatchesSlot(entry(), freed, context(freed))).toBe(false);
  });

  it("keeps to the dentist asked for", () => {
    const freed = slot();
    expect(entryMatchesSlot(entry({ dentistId: "dr-a" }), freed, context(freed))).toBe(true);
    expect(entryMatchesSlot(entry({ dentistId: "dr-b" }), freed, context(freed))).toBe(false);
  });

  it("keeps to the chosen weekdays (1 = lunes)", () => {
    const freed = slot();
    expect(entryMatchesSlot(entry({ weekdays: [1, 3] }), freed, context(freed))).toBe(true);
    expect(entryMatchesSlot(entry({ weekdays: [2, 3, 4, 5] }), freed, context(freed))).toBe(false);
  });

  it("mañana is before 13:00 and tarde from 13:00, clinic time", () => {
    expect(dayPartOf("12:59")).toBe("manana");
    expect(dayPartOf("13:00")).toBe("tarde");
    const morning = slot();
    expect(entryMatchesSlot(entry({ dayParts: ["tarde"] }), morning, context(morning))).toBe(false);
    const afternoon = slot({ time: "15:00" });
    expect(entryMatchesSlot(entry({ dayParts: ["tarde"] }), afternoon, context(afternoon))).toBe(true);
    expect(entryMatchesSlot(entry({ dayParts: ["manana"] }), afternoon, context(afternoon))).toBe(false);
  });

  it("keeps to earliest_date..until_date, both inclusive", () => {
    const freed = slot();
    expect(entryMatchesSlot(entry({ untilDate: "2026-11-30" }), freed, context(freed))).toBe(true);
    expect(entryMatchesSlot(entry({ untilDate: "2026-11-29" }), freed, context(freed))).toBe(false);
    expect(entryMatchesSlot(entry({ earliestDate: "2026-11-30" }), freed, context(freed))).toBe(true);
    expect(entryMatchesSlot(entry({ earliestDate: "2026-12-01" }), freed, context(freed))).toBe(false);
  });

  it("needs the treatment to fit in the freed time and at a start the schedule offers", () => {
    const freed = slot();
    expect(entryMatchesSlot(entry({ durationMinutes: 30 }), freed, context(freed, 30))).toBe(true);
    expect(entryMatchesSlot(entry({ durationMinutes: 90 }), freed, context(freed, 90))).toBe(false);
    // 11:30 for 60 minutes would run past the 12:00 end of the morning block, even in a 60-minute freed slot.
    const late = slot({ time: "11:30" });
    expect(entryMatchesSlot(entry(), late, context(late, 60))).toBe(false);
  });

  it("is not offered to a patient who already has an appointment at that time", () => {
    const freed = slot();
    const busy = [
      { startsAt: clinicInstant("2026-11-30", "10:30"), endsAt: clinicInstant("2026-11-30", "11:00") },
    ];
    expect(entryMatchesSlot(entry(), freed, context(freed, 60, busy))).toBe(false);
    const before = [
      { startsAt: clinicInstant("2026-11-30", "09:00"), endsAt: clinicInstant("2026-11-30", "10:00") },
    ];
    expect(entryMatchesSlot(entry(), freed, context(freed, 60, before))).toBe(true);
  });

  it("is only an earlier time than the booking the entry would move", () => {
    const freed = slot();
    expect(
      entryMatchesSlot(
        entry({ currentStartsAt: clinicInstant("2026-12-10", "10:00") }),
        freed,
        context(freed),
      ),
    ).toBe(true);
    expect(
      entryMatchesSlot(
        entry({ currentStartsAt: clinicInstant("2026-11-30", "09:00") }),
        freed,
        context(freed),
      ),
    ).toBe(false);
  });
});

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute));

describe("batches", () => {
  const entries = Array.from({ length: 12 }, (_, index) => ({ id: `e${index}`, createdAt: at(12 - index) }));

  it("offers five at a time in the order they joined, skipping those already offered", () => {
    const first = nextBatch(entries, new Set());
    expect(first).toHaveLength(WAITLIST_BATCH_SIZE);
    expect(first.map((row) => row.id)).toEqual(["e11", "e10", "e9", "e8", "e7"]);
    const second = nextBatch(entries, new Set(first.map((row) => row.id)));
    expect(second.map((row) => row.id)).toEqual(["e6", "e5", "e4", "e3", "e2"]);
    const third = nextBatch(entries, new Set([...first, ...second].map((row) => row.id)));
    expect(third.map((row) => row.id)).toEqual(["e1", "e0"]);
  });

  it("waits ten minutes for the next batch", () => {
    expect(nextBatchAt(at(0)).getTime() - at(0).getTime()).toBe(10 * 60_000);
  });
});

describe("when offers stop", () => {
  const startsAt = clinicInstant("2026-11-30", "10:00");
  const twoHoursBefore = new Date(startsAt.getTime() - 2 * 3_600_000);

  it("offers while at least two hours away and free", () => {
    expect(slotOfferDecision({ startsAt }, true, twoHoursBefore)).toEqual({ offer: true });
    expect(isFarEnoughToOffer(startsAt, twoHoursBefore)).toBe(true);
  });

  it("stops under two hours", () => {
    const later = new Date(twoHoursBefore.getTime() + 60_000);
    expect(slotOfferDecision({ startsAt }, true, later)).toEqual({ offer: false, reason: "cerca" });
    expect(isFarEnoughToOffer(startsAt, later)).toBe(false);
  });

  it("stops when the slot is taken", () => {
    expect(slotOfferDecision({ startsAt }, false, twoHoursBefore)).toEqual({
      offer: false,
      reason: "ocupada",
    });
  });

  it("an offer's link lasts until the cutoff", () => {
    expect(offerExpiresAt(startsAt)).toEqual(twoHoursBefore);
  });

  it("an entry expires after its last date", () => {
    expect(isEntryExpired("2026-11-29", "2026-11-30")).toBe(true);
    expect(isEntryExpired("2026-11-30", "2026-11-30")).toBe(false);
  });
});
