import { describe, expect, it } from "vitest";
import {
  BOOKING_HORIZON_MESSAGE,
  bookingDateDecision,
  bookingWindowDecision,
  earliestBookableStart,
  isBeyondBookingHorizon,
  canTransition,
  lateCancellationRecorded,
  lateCancellationWarning,
  cancellationDecision,
  cancellationPolicyText,
  cancellationWording,
  confirmationDecision,
  effectiveDuration,
  rescheduleDecision,
} from "./appointment-policy";
import { clinicInstant } from "./clinic-time";

const at = (iso: string) => new Date(iso);
const clp = (amount: number) => `$${amount}`;
const appointment = (startsAt: Date, status = "scheduled", treatmentPrice: number | null = 120_000) => ({
  startsAt,
  status,
  treatmentPrice,
});

describe("cancellation", () => {
  const start = at("2026-12-10T12:00:00Z");
  it("is free 24 hours or more ahead", () => {
    expect(cancellationDecision(appointment(start), at("2026-12-09T12:00:00Z"))).toEqual({
      allowed: true,
      late: false,
      fee: 0,
    });
  });
  it("costs 50% of the treatment with less than 24 hours", () => {
    expect(cancellationDecision(appointment(start), at("2026-12-09T12:00:01Z"))).toEqual({
      allowed: true,
      late: true,
      fee: 60_000,
    });
  });
  it("has no fee to charge when the treatment has no price", () => {
    expect(
      cancellationDecision(appointment(start, "scheduled", null), at("2026-12-10T11:00:00Z")),
    ).toMatchObject({ fee: 0, late: true });
  });
  it("refuses past appointments and closed statuses", () => {
    expect(cancellationDecision(appointment(start), at("2026-12-10T12:00:00Z")).allowed).toBe(false);
    for (const status of ["completed", "cancelled", "no_show", "in_progress", "payment_failed"]) {
      expect(cancellationDecision(appointment(start, status), at("2026-12-01T00:00:00Z")).allowed).toBe(
        false,
      );
    }
    expect(cancellationDecision(appointment(start, "confirmed"), at("2026-12-01T00:00:00Z")).allowed).toBe(
      true,
    );
  });
  it("lets a booking still waiting for its deposit go at no cost, even inside the 24 hours", () => {
    expect(cancellationDecision(appointment(start, "pending_payment"), at("2026-12-10T11:00:00Z"))).toEqual({
      allowed: true,
      late: false,
      fee: 0,
    });
  });
  it("counts real hours across Chile's spring-forward night", () => {
    // Clocks jump from 00:00 to 01:00 on Sunday 6 Sep 2026: Saturday 10:00 → Sunday 10:00 is only 23 real hours.
    const sunday = clinicInstant("2026-09-06", "10:00");
    expect(cancellationDecision(appointment(sunday), clinicInstant("2026-09-05", "10:00"))).toMatchObject({
      late: true,
      fee: 60_000,
    });
    expect(cancellationDecision(appointment(sunday), clinicInstant("2026-09-05", "09:00"))).toMatchObject({
      late: false,
    });
  });
  it("counts real hours across the autumn night that repeats an hour", () => {
    // Clocks go back from 00:00 to 23:00 on Sunday 5 Apr 2026: Saturday 10:00 → Sunday 10:00 is 25 real hours.
    const sunday = clinicInstant("2026-04-05", "10:00");
    expect(cancellationDecision(appointment(sunday), clinicInstant("2026-04-04", "10:00"))).toMatchObject({
      late: false,
    });
    expect(cancellationDecision(appointment(sunday), clinicInstant("2026-04-04", "11:00"))).toMatchObject({
      late: false,
    });
    expect(cancellationDecision(appointment(sunday), clinicInstant("2026-04-04", "11:01"))).toMatchObject({
      late: true,
    });
  });
  it("states the policy", () => {
    expect(cancellationPolicyText({ late: false, fee: 0 }, clp)).toContain("24 horas o más");
    expect(cancellationPolicyText({ late: true, fee: 60_000 }, clp)).toContain("50%");
    expect(cancellationPolicyText({ late: true, fee: 60_000 }, clp)).toContain("$60000");
  });
});

describe("reschedule and confirm", () => {
  const start = at("2026-12-10T12:00:00Z");
  it("reschedules only 24 hours or more ahead", () => {
    expect(rescheduleDecision(appointment(start), at("2026-12-09T11:00:00Z")).allowed).toBe(true);
    expect(rescheduleDecision(appointment(start), at("2026-12-09T13:00:00Z")).allowed).toBe(false);
    expect(rescheduleDecision(appointment(start, "completed"), at("2026-12-01T00:00:00Z")).allowed).toBe(
      false,
    );
  });
  it("confirms only scheduled, future appointments", () => {
    expect(confirmationDecision(appointment(start), at("2026-12-10T11:59:00Z")).allowed).toBe(true);
    expect(confirmationDecision(appointment(start, "confirmed"), at("2026-12-01T00:00:00Z")).allowed).toBe(
      false,
    );
    expect(confirmationDecision(appointment(start), at("2026-12-10T12:00:00Z")).allowed).toBe(false);
  });
});

describe("booking window, durations and transitions", () => {
  const now = at("2026-12-01T12:00:00Z");
  it("needs an hour ahead and at most 90 days", () => {
    expect(bookingWindowDecision(at("2026-12-01T12:59:00Z"), now).allowed).toBe(false);
    expect(bookingWindowDecision(at("2026-12-01T13:00:00Z"), now).allowed).toBe(true);
    expect(bookingWindowDecision(at("2027-03-02T12:00:01Z"), now).allowed).toBe(false);
  });
  it("uses the appointment's duration, else the treatment's, else 60", () => {
    expect(effectiveDuration(45, 90)).toBe(45);
    expect(effectiveDuration(null, 90)).toBe(90);
    expect(effectiveDuration(undefined, null)).toBe(60);
  });
  it("allows only the defined transitions", () => {
    expect(canTransition("scheduled", "confirmed")).toBe(true);
    expect(canTransition("confirmed", "scheduled")).toBe(false);
    expect(canTransition("completed", "cancelled")).toBe(false);
    expect(canTransition("weird", "cancelled")).toBe(false);
  });
});

describe("booking dates", () => {
  it("accepts today up to the 90th day after it, on the clinic's calendar", () => {
    expect(bookingDateDecision("2026-11-24", "2026-11-24")).toEqual({ allowed: true });
    expect(bookingDateDecision("2027-02-22", "2026-11-24")).toEqual({ allowed: true });
    expect(isBeyondBookingHorizon("2027-02-22", "2026-11-24")).toBe(false);
  });

  it("refuses past dates and dates beyond the horizon with the one message each", () => {
    expect(bookingDateDecision("2026-11-23", "2026-11-24")).toEqual({
      allowed: false,
      reason: "No se puede agendar en una fecha pasada.",
    });
    expect(isBeyondBookingHorizon("2027-02-23", "2026-11-24")).toBe(true);
    expect(bookingDateDecision("2027-02-23", "2026-11-24")).toEqual({
      allowed: false,
      reason: BOOKING_HORIZON_MESSAGE,
    });
    expect(BOOKING_HORIZON_MESSAGE).toBe("Solo se puede agendar hasta 90 días hacia adelante.");
  });

  it("needs one hour of notice", () => {
    const now = at("2026-11-24T12:00:00Z");
    expect(earliestBookableStart(now).toISOString()).toBe("2026-11-24T13:00:00.000Z");
    expect(bookingWindowDecision(at("2026-11-24T13:00:00Z"), now)).toEqual({ allowed: true });
    expect(bookingWindowDecision(at("2026-11-24T12:59:00Z"), now).allowed).toBe(false);
  });
});

describe("the policy's wording, built from its constants", () => {
  it("states the 24-hour window and the 50% fee exactly as the screens and messages always have", () => {
    expect(cancellationWording).toEqual({
      policy:
        "Política de la clínica: cancelar con 24 horas o más de anticipación no tiene costo; con menos de 24 horas se cobra el 50% del valor del tratamiento. Las citas pasadas no se pueden cancelar.",
      bookingNote:
        "Puedes cancelar sin costo con 24 horas o más de anticipación; con menos de 24 horas se cobra el 50% del tratamiento.",
      lateFeeNotice: "Cancelar con menos de 24 horas de anticipación tiene un cargo del 50% del tratamiento.",
      freeNotice: "Para cancelar sin costo, avísanos con 24 horas de anticipación.",
      freeNoticeAtLeast: "Para cancelar sin costo, avísanos con al menos 24 horas de anticipación.",
      free: "Cancelar con 24 horas o más de anticipación no tiene costo.",
      rescheduleTooLate: "Faltan menos de 24 horas: para reprogramar, llama a la clínica.",
    });
    expect(lateCancellationWarning("$95.000")).toBe(
      "Faltan menos de 24 horas para tu cita: según nuestra política, cancelar ahora tiene un cargo del 50% del tratamiento ($95.000).",
    );
    expect(lateCancellationRecorded("$95.000")).toBe(
      "Tu cita fue cancelada. Según nuestra política, se registró un cargo de $95.000 (50% del tratamiento).",
    );
  });

  it("states the booking horizon and the minimum notice from their constants", () => {
    expect(BOOKING_HORIZON_MESSAGE).toBe("Solo se puede agendar hasta 90 días hacia adelante.");
    const soon = bookingWindowDecision(new Date("2026-01-05T12:30:00Z"), new Date("2026-01-05T12:00:00Z"));
    expect(soon).toEqual({
      allowed: false,
      reason: "Elige un horario con al menos una hora de anticipación.",
    });
  });
});
