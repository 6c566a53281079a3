import { describe, expect, it } from "vitest";
import {
  appointmentLinkMessage,
  appointmentLinkState,
  appointmentLinkStatus,
  type LinkAppointment,
  type LinkToken,
} from "./appointment-links";

const HOUR = 3_600_000;
const start = new Date("2026-03-10T13:00:00Z");
const appointment = (status: string, startsAt = start): LinkAppointment => ({
  status,
  startsAt,
  treatmentPrice: 45_000,
});
const token = (action: "confirm" | "cancel", usedAt: Date | null = null): LinkToken => ({
  action,
  expiresAt: start,
  usedAt,
});
const before = (hours: number) => new Date(start.getTime() - hours * HOUR);

describe("appointmentLinkState", () => {
  it("an unknown token is invalid (404)", () => {
    const state = appointmentLinkState(undefined, undefined, before(30));
    expect(state).toEqual({ kind: "invalid" });
    expect(appointmentLinkStatus(state, "GET")).toBe(404);
    expect(appointmentLinkMessage(state as { kind: "invalid" }, "confirm")).toContain("no es válido");
  });

  it("expires at the appointment's start and when the appointment moved (410)", () => {
    const started = appointmentLinkState(token("confirm"), appointment("scheduled"), start);
    expect(started).toEqual({ kind: "expired", reason: "started" });
    expect(appointmentLinkStatus(started, "POST")).toBe(410);
    const moved = appointmentLinkState(
      token("cancel"),
      appointment("scheduled", new Date(start.getTime() + 2 * HOUR)),
      before(5),
    );
    expect(moved).toEqual({ kind: "expired", reason: "moved" });
  });

  it("confirm: ready for a scheduled appointment; says so when already confirmed or cancelled", () => {
    expect(appointmentLinkState(token("confirm"), appointment("scheduled"), before(20))).toEqual({
      kind: "ready",
      late: false,
      fee: 0,
    });
    expect(appointmentLinkState(token("confirm"), appointment("confirmed"), before(20))).toEqual({
      kind: "closed",
      message: "Tu cita ya está confirmada.",
    });
    const cancelled = appointmentLinkState(token("confirm"), appointment("cancelled"), before(20));
    expect(cancelled).toMatchObject({
      kind: "closed",
      message: expect.stringContaining("no se puede confirmar"),
    });
    expect(appointmentLinkStatus(cancelled, "POST")).toBe(409);
    expect(appointmentLinkStatus(cancelled, "GET")).toBe(200);
  });

  it("cancel: free 24 h or more ahead, 50% of the treatment under 24 h; a confirmed appointment can be cancelled", () => {
    expect(appointmentLinkState(token("cancel"), appointment("scheduled"), before(30))).toEqual({
      kind: "ready",
      late: false,
      fee: 0,
    });
    expect(appointmentLinkState(token("cancel"), appointment("confirmed"), before(20))).toEqual({
      kind: "ready",
      late: true,
      fee: 22_500,
    });
    expect(appointmentLinkState(token("cancel"), appointment("cancelled"), before(20))).toEqual({
      kind: "closed",
      message: "Esta cita ya está cancelada.",
    });
  });

  it("a used link acts no more and says so", () => {
    const used = appointmentLinkState(token("confirm", before(25)), appointment("confirmed"), before(20));
    expect(used).toEqual({ kind: "used", usedAt: before(25) });
    expect(appointmentLinkStatus(used, "POST")).toBe(409);
    expect(appointmentLinkMessage(used as { kind: "used"; usedAt: Date }, "confirm")).toBe(
      "Este enlace ya se usó para confirmar tu cita; no vuelve a actuar.",
    );
  });
});
