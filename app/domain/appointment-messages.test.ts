import { describe, expect, it } from "vitest";
import {
  clinicAppointmentMessage,
  patientAppointmentMessage,
  type AppointmentMessageFacts,
} from "./appointment-messages";
import { clinicInstant } from "./clinic-time";

const base: AppointmentMessageFacts = {
  event: "booked",
  clinicName: "Río Clínica",
  patient: { firstName: "Ana", lastName: "Rojas", phone: "+56912345678" },
  treatment: "Limpieza Dental",
  dentist: "Inés Soto",
  startsAt: clinicInstant("2026-01-15", "09:30"),
};

describe("patientAppointmentMessage", () => {
  it("names the treatment, the dentist, the date and the time in clinic time for each event", () => {
    expect(patientAppointmentMessage(base)).toBe(
      "Hola Ana, tu cita de Limpieza Dental con Inés Soto quedó agendada para el jueves, 15 de enero de 2026 a las 09:30. Río Clínica.",
    );
    expect(patientAppointmentMessage({ ...base, event: "rescheduled" })).toBe(
      "Hola Ana, tu cita de Limpieza Dental con Inés Soto fue reprogramada para el jueves, 15 de enero de 2026 a las 09:30. Río Clínica.",
    );
    expect(patientAppointmentMessage({ ...base, event: "cancelled" })).toBe(
      "Hola Ana, tu cita de Limpieza Dental con Inés Soto del jueves, 15 de enero de 2026 a las 09:30 fue cancelada. Río Clínica.",
    );
  });

  it("uses the clinic's clock on both sides of a clock change (not UTC, not a fixed offset)", () => {
    // Chile leaves summer time on the first Sunday of April 2026 and returns on the first Sunday of September.
    const beforeChange = clinicInstant("2026-04-03", "09:00");
    const afterChange = clinicInstant("2026-04-06", "09:00");
    expect(afterChange.getTime() - beforeChange.getTime()).toBe((3 * 24 + 1) * 3_600_000);
    expect(patientAppointmentMessage({ ...base, startsAt: beforeChange })).toContain(
      "viernes, 3 de abril de 2026 a las 09:00",
    );
    expect(patientAppointmentMessage({ ...base, startsAt: afterChange })).toContain(
      "lunes, 6 de abril de 2026 a las 09:00",
    );
    // 21:30 in Santiago is already the next day in UTC: the message keeps the clinic's date.
    expect(patientAppointmentMessage({ ...base, startsAt: clinicInstant("2026-09-07", "21:30") })).toContain(
      "lunes, 7 de septiembre de 2026 a las 21:30",
    );
  });
});

describe("clinicAppointmentMessage", () => {
  it("tells the event, the patient's name and phone, the treatment, the dentist and the time", () => {
    expect(clinicAppointmentMessage(base)).toBe(
      [
        "Nueva cita agendada en línea.",
        "Paciente: Ana Rojas (+56 9 1234 5678).",
        "Tratamiento: Limpieza Dental, con Inés Soto.",
        "Fecha: jueves, 15 de enero de 2026 a las 09:30.",
      ].join("\n"),
    );
  });

  it("gives both times of a reschedule", () => {
    const text = clinicAppointmentMessage({
      ...base,
      event: "rescheduled",
      previousStartsAt: clinicInstant("2026-01-14", "16:00"),
    });
    expect(text).toContain("Cita reprogramada en línea.");
    expect(text).toContain("Antes: miércoles, 14 de enero de 2026 a las 16:00.");
    expect(text).toContain("Ahora: jueves, 15 de enero de 2026 a las 09:30.");
  });

  it("marks a late cancellation's fee and a patient without a phone", () => {
    const text = clinicAppointmentMessage({
      ...base,
      event: "cancelled",
      fee: 17500,
      patient: { ...base.patient, phone: null },
    });
    expect(text).toContain("Cita cancelada en línea.");
    expect(text).toContain("Paciente: Ana Rojas (sin teléfono).");
    expect(text).toMatch(/Cancelación tardía: cargo de \$\s?17\.500\./);
    expect(clinicAppointmentMessage({ ...base, event: "cancelled", fee: 0 })).not.toContain("Cancelación");
  });
});
