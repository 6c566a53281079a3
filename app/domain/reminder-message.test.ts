import { expect, it } from "vitest";
import { clinicInstant } from "./clinic-time";
import {
  earlyReminderTemplate,
  REMINDER_TEMPLATE_NAME,
  renderReminder,
  reminderPlaceholders,
  sameDayReminderPlaceholders,
} from "./reminder-message";
import { renderTemplate, templateContent, hasSecretPlaceholders } from "./whatsapp-templates";

it("fills the template with the name, the date and time on the clinic's clock and both links", () => {
  const placeholders = reminderPlaceholders({
    firstName: "Ana",
    // 23:30 in Santiago is already the next day in UTC.
    startsAt: clinicInstant("2026-01-15", "23:30"),
    confirmUrl: "https://clinica.example/cita/confirmar/abc",
    cancelUrl: "https://clinica.example/cita/cancelar/def",
    callbackUrl: "https://clinica.example/cita/hablar/ghi",
  });
  expect(REMINDER_TEMPLATE_NAME).toBe("recordatorio_cita");
  expect(placeholders).toEqual([
    "Ana",
    "jueves, 15 de enero de 2026",
    "23:30",
    "https://clinica.example/cita/confirmar/abc",
    "https://clinica.example/cita/cancelar/def",
    "https://clinica.example/cita/hablar/ghi",
  ]);
  expect(renderReminder(placeholders)).toContain(
    "Hola Ana, te recordamos tu cita en la clínica el jueves, 15 de enero de 2026 a las 23:30.",
  );
});

it("the 24 h reminder carries the third link, secret like the other two", () => {
  const placeholders = reminderPlaceholders({
    firstName: "Ana",
    startsAt: clinicInstant("2026-01-15", "10:00"),
    confirmUrl: "https://c/cita/confirmar/a",
    cancelUrl: "https://c/cita/cancelar/b",
    callbackUrl: "https://c/cita/hablar/c",
  });
  expect(renderReminder(placeholders)).toContain("te llamamos: https://c/cita/hablar/c");
  expect(hasSecretPlaceholders("recordatorio_cita")).toBe(true);
});

it("the 48 h step links the forms only when some are pending; the 2 h step gives the date and the address", () => {
  const startsAt = clinicInstant("2026-09-06", "09:00");
  const plain = earlyReminderTemplate({
    firstName: "Ana",
    startsAt,
    clinicName: "Río Clínica",
    formsUrl: null,
  });
  expect(plain.key).toBe("appointmentReminderEarly");
  expect(renderTemplate(plain.key, templateContent(plain.key, plain.placeholders).placeholders)).toBe(
    "Hola Ana, te recordamos que tienes una cita en la clínica el domingo, 6 de septiembre de 2026 a las 09:00. Un día antes te pediremos confirmarla. Río Clínica.",
  );
  const forms = earlyReminderTemplate({
    firstName: "Ana",
    startsAt,
    clinicName: "Río Clínica",
    formsUrl: "https://c/paciente/formularios",
  });
  expect(forms.key).toBe("appointmentReminderEarlyForms");
  expect(renderTemplate(forms.key, forms.placeholders)).toContain(
    "completa tus formularios aquí: https://c/paciente/formularios .",
  );
  const sameDay = sameDayReminderPlaceholders({ firstName: "", startsAt, address: "Av. Providencia 1234" });
  expect(
    renderTemplate(
      "appointmentReminderSameDay",
      templateContent("appointmentReminderSameDay", sameDay).placeholders,
    ),
  ).toBe(
    "Hola paciente, te esperamos el domingo, 6 de septiembre de 2026 a las 09:00 en Av. Providencia 1234. Si te retrasas o no puedes venir, avísanos respondiendo este mensaje.",
  );
});
