import { expect, it } from "vitest";
import { clinicInstant } from "./clinic-time";
import { REMINDER_TEMPLATE_NAME, renderReminder, reminderPlaceholders } from "./reminder-message";

it("fills the template with the name, the date and time on the clinic's clock and both links", () => {
  const placeholders = reminderPlaceholders({
    firstName: "Ana",
    // 23:30 in Santiago is already the next day in UTC.
    startsAt: clinicInstant("2026-01-15", "23:30"),
    confirmUrl: "https://clinica.example/cita/confirmar/abc",
    cancelUrl: "https://clinica.example/cita/cancelar/def",
  });
  expect(REMINDER_TEMPLATE_NAME).toBe("recordatorio_cita");
  expect(placeholders).toEqual([
    "Ana",
    "jueves, 15 de enero de 2026",
    "23:30",
    "https://clinica.example/cita/confirmar/abc",
    "https://clinica.example/cita/cancelar/def",
  ]);
  expect(renderReminder(placeholders)).toContain(
    "Hola Ana, te recordamos tu cita en la clínica el jueves, 15 de enero de 2026 a las 23:30.",
  );
});
