import { describe, expect, it } from "vitest";
import {
  appointmentStatuses,
  appointmentStatusLabel,
  appointmentStatusTone,
  closedAppointmentStatuses,
  FALLBACK_TREATMENT_NAME,
  isAppointmentStatus,
  isInactiveAppointment,
  isLiveAppointment,
  liveAppointmentStatuses,
  treatmentNameOrFallback,
} from "./appointment-status";

describe("appointment statuses", () => {
  it("labels the six statuses of the patient area, the two of a booking's deposit, and shows any other value raw", () => {
    expect(appointmentStatuses.map(appointmentStatusLabel)).toEqual([
      "Programada",
      "Confirmada",
      "En Progreso",
      "Completada",
      "Cancelada",
      "No Asistió",
      "Pendiente de pago",
      "Pago no completado",
    ]);
    expect(appointmentStatusLabel("rescheduled")).toBe("rescheduled");
    expect(appointmentStatusLabel("toString")).toBe("toString");
    expect(isAppointmentStatus("no_show")).toBe(true);
    expect(isAppointmentStatus("constructor")).toBe(false);
  });

  it("colours no-shows red like cancellations, and unknown values grey", () => {
    expect(appointmentStatusTone("no_show")).toBe("red");
    expect(appointmentStatusTone("cancelled")).toBe("red");
    expect(appointmentStatusTone("scheduled")).toBe("sky");
    expect(appointmentStatusTone("confirmed")).toBe("emerald");
    expect(appointmentStatusTone("in_progress")).toBe("amber");
    expect(appointmentStatusTone("completed")).toBe("slate");
    expect(appointmentStatusTone("whatever")).toBe("slate");
  });

  it("splits live from closed statuses", () => {
    expect([...liveAppointmentStatuses]).toEqual([
      "pending_payment",
      "scheduled",
      "confirmed",
      "in_progress",
    ]);
    expect(closedAppointmentStatuses).toEqual(["completed", "cancelled", "no_show", "payment_failed"]);
    expect(isInactiveAppointment("payment_failed")).toBe(true);
    expect(isLiveAppointment("pending_payment")).toBe(true);
    expect(isLiveAppointment("in_progress")).toBe(true);
    expect(isLiveAppointment("completed")).toBe(false);
    expect(isInactiveAppointment("no_show")).toBe(true);
    expect(isInactiveAppointment("cancelled")).toBe(true);
    expect(isInactiveAppointment("completed")).toBe(false);
  });

  it("names an appointment without a treatment 'Consulta'", () => {
    expect(FALLBACK_TREATMENT_NAME).toBe("Consulta");
    expect(treatmentNameOrFallback(null)).toBe("Consulta");
    expect(treatmentNameOrFallback(undefined)).toBe("Consulta");
    expect(treatmentNameOrFallback("Implante dental")).toBe("Implante dental");
  });
});
