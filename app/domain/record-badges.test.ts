import { describe, expect, it } from "vitest";
import { appointmentBadgeStatus, badgeTone, progressPercent, statusLabel } from "./record-badges";

describe("badgeTone (spec 001 §4)", () => {
  it.each([
    ["confirmada", "green"],
    ["pagado", "green"],
    ["completado", "green"],
    ["Completado", "green"],
    ["pendiente", "yellow"],
    ["en_proceso", "yellow"],
    ["En proceso", "yellow"],
    ["cancelada", "red"],
    ["vencido", "red"],
    ["reembolsado", "grey"],
    ["", "grey"],
    [null, "grey"],
  ] as const)("%j is %s", (status, tone) => {
    expect(badgeTone(status)).toBe(tone);
  });

  it("colours an appointment by its state's family", () => {
    expect(badgeTone(appointmentBadgeStatus("confirmed"))).toBe("green");
    expect(badgeTone(appointmentBadgeStatus("completed"))).toBe("green");
    expect(badgeTone(appointmentBadgeStatus("scheduled"))).toBe("yellow");
    expect(badgeTone(appointmentBadgeStatus("in_progress"))).toBe("yellow");
    expect(badgeTone(appointmentBadgeStatus("cancelled"))).toBe("red");
    expect(badgeTone(appointmentBadgeStatus("no_show"))).toBe("grey");
  });
});

describe("progressPercent", () => {
  it("clamps and rounds", () => {
    expect(progressPercent(40.4)).toBe(40);
    expect(progressPercent(140)).toBe(100);
    expect(progressPercent(-3)).toBe(0);
    expect(progressPercent(null)).toBe(0);
    expect(progressPercent(Number.NaN)).toBe(0);
  });
});

describe("statusLabel (issue 24, item 16)", () => {
  it.each([
    ["en_proceso", "En proceso"],
    ["pagado", "Pagado"],
    ["pendiente", "Pendiente"],
    ["Pendiente", "Pendiente"],
    ["no_asistio", "No asistió"],
    ["en_revision_clinica", "En revision clinica"],
    ["Atendido", "Atendido"],
    [null, "Sin estado"],
    ["  ", "Sin estado"],
  ])("%j → %s", (status, label) => {
    expect(statusLabel(status)).toBe(label);
  });
});
