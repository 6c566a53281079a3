import { describe, expect, it } from "vitest";
import {
  clinicAppointmentMessage,
  clinicAppointmentTemplate,
  patientAppointmentMessage,
  patientAppointmentTemplate,
  type AppointmentMessageFacts,
} from "./appointment-messages";
import { clinicInstant } from "./clinic-time";
import {
  advisorLeadMessage,
  advisorLeadTemplate,
  patientLeadMessage,
  patientLeadTemplate,
  type LeadMessageFacts,
} from "./lead-messages";
import {
  hasSecretPlaceholders,
  placeholderValue,
  REDACTED_PLACEHOLDER,
  renderTemplate,
  restoreSecrets,
  separateSecrets,
  templateContent,
  whatsAppTemplates,
  type WhatsAppTemplateKey,
} from "./whatsapp-templates";

const keyOf = (name: string) =>
  (Object.keys(whatsAppTemplates) as WhatsAppTemplateKey[]).find(
    (key) => whatsAppTemplates[key].name === name,
  )!;

/** The template as the recipient reads it equals the free text on one line: the fallback says the same. */
function rendered(content: { name: string; placeholders: string[] }) {
  return renderTemplate(keyOf(content.name), content.placeholders);
}

describe("the template registry", () => {
  it("has unique names Meta accepts and a body placeholder for each declared one", () => {
    const names = Object.values(whatsAppTemplates).map((template) => template.name);
    expect(new Set(names).size).toBe(names.length);
    for (const template of Object.values(whatsAppTemplates)) {
      expect(template.name).toMatch(/^[a-z0-9_]{1,512}$/);
      const used = [...template.body.matchAll(/\{\{(\d+)\}\}/g)].map((match) => Number(match[1]));
      expect(used).toEqual(template.placeholders.map((_, index) => index + 1));
      // Meta refuses a body that starts or ends with a placeholder.
      expect(template.body).not.toMatch(/^\{\{|\}\}$/);
    }
  });

  it("puts each value on one line and never leaves one empty", () => {
    expect(placeholderValue("  Ana \n\t Pérez  ")).toBe("Ana Pérez");
    expect(placeholderValue("   ")).toBe("-");
    expect(placeholderValue(85)).toBe("85");
  });

  it("refuses the wrong number of values", () => {
    expect(() => templateContent("leadPatient", ["Ana"])).toThrow(/5 placeholders expected, 1 given/);
  });
});

describe("secret placeholders", () => {
  it("are marked on placeholders the template has: the record code and the reminder's two links", () => {
    for (const template of Object.values(whatsAppTemplates)) {
      for (const position of "secret" in template ? template.secret : []) {
        expect(position).toBeGreaterThanOrEqual(1);
        expect(position).toBeLessThanOrEqual(template.placeholders.length);
      }
    }
    expect(hasSecretPlaceholders("codigo_acceso_ficha")).toBe(true);
    expect(hasSecretPlaceholders("recordatorio_cita")).toBe(true);
    expect(hasSecretPlaceholders("lead_confirmacion_paciente")).toBe(false);
  });

  it("are replaced for storage and kept apart, then put back for sending", () => {
    const reminder = templateContent("appointmentReminder", [
      "Ana",
      "jueves, 14 de marzo de 2030",
      "10:00",
      "https://clinica.test/cita/confirmar/aaa",
      "https://clinica.test/cita/cancelar/bbb",
      "https://clinica.test/cita/hablar/ccc",
    ]);
    const { stored, secrets } = separateSecrets(reminder);
    expect(stored.placeholders).toEqual([
      "Ana",
      "jueves, 14 de marzo de 2030",
      "10:00",
      REDACTED_PLACEHOLDER,
      REDACTED_PLACEHOLDER,
      REDACTED_PLACEHOLDER,
    ]);
    expect(JSON.stringify(stored)).not.toMatch(/aaa|bbb|ccc/);
    expect(restoreSecrets(stored.name, stored.placeholders, secrets)).toEqual(reminder.placeholders);
    // Without its secrets a message cannot be sent (never with "[oculto]" in it).
    expect(restoreSecrets(stored.name, stored.placeholders, null)).toBeNull();
    expect(restoreSecrets(stored.name, stored.placeholders, { 3: "x" })).toBeNull();

    const code = templateContent("clinicalRecordCode", ["123456"]);
    expect(separateSecrets(code).stored.placeholders).toEqual([REDACTED_PLACEHOLDER]);
    const lead = templateContent("leadPatient", ["Ana", "Implantes", "te llama", "9 a 18", "Río"]);
    expect(separateSecrets(lead)).toEqual({ stored: lead, secrets: null });
    expect(restoreSecrets(lead.name, lead.placeholders, null)).toEqual(lead.placeholders);
  });
});

const lead: LeadMessageFacts = {
  clinicName: "Río Clínica",
  clinicHours: "Lun-Vie 9:00-18:00",
  name: " Ana  Pérez ",
  phone: "+56912345678",
  treatment: "Implantes dentales",
  level: "warm",
  levelLabel: "Tibio",
  score: 45,
  source: "WhatsApp",
};

describe("lead templates", () => {
  it("say what the texts say", () => {
    expect(advisorLeadTemplate(lead)).toEqual({
      name: "lead_aviso_asesor",
      placeholders: ["WhatsApp", "Ana Pérez", "+56 9 1234 5678", "Implantes dentales", "Tibio", "45"],
    });
    expect(rendered(advisorLeadTemplate(lead))).toBe(advisorLeadMessage(lead).replace(/\n/g, " "));
    expect(patientLeadTemplate(lead).name).toBe("lead_confirmacion_paciente");
    for (const level of ["hot", "warm", "cold"] as const) {
      const facts = { ...lead, level };
      expect(rendered(patientLeadTemplate(facts))).toBe(patientLeadMessage(facts));
    }
  });
});

const appointment: AppointmentMessageFacts = {
  event: "booked",
  clinicName: "Río Clínica",
  patient: { firstName: "Ana", lastName: "Rojas", phone: "+56912345678" },
  treatment: "Limpieza Dental",
  dentist: "Inés Soto",
  startsAt: clinicInstant("2026-01-15", "09:30"),
};

describe("appointment templates", () => {
  const events: AppointmentMessageFacts[] = [
    appointment,
    { ...appointment, event: "rescheduled", previousStartsAt: clinicInstant("2026-01-14", "16:00") },
    { ...appointment, event: "cancelled" },
    { ...appointment, event: "cancelled", fee: 17_500 },
    { ...appointment, patient: { ...appointment.patient, phone: null } },
  ];

  it("have one template per event and recipient, saying what the texts say", () => {
    expect(events.map((facts) => patientAppointmentTemplate(facts).name)).toEqual([
      "cita_agendada_paciente",
      "cita_reprogramada_paciente",
      "cita_cancelada_paciente",
      "cita_cancelada_paciente",
      "cita_agendada_paciente",
    ]);
    expect(events.map((facts) => clinicAppointmentTemplate(facts).name)).toEqual([
      "cita_agendada_clinica",
      "cita_reprogramada_clinica",
      "cita_cancelada_clinica",
      "cita_cancelada_clinica",
      "cita_agendada_clinica",
    ]);
    for (const facts of events) {
      expect(rendered(patientAppointmentTemplate(facts))).toBe(patientAppointmentMessage(facts));
      const clinicText = clinicAppointmentMessage(facts).replace(/\n/g, " ");
      const clinicTemplate = rendered(clinicAppointmentTemplate(facts));
      // The text mentions a late fee only when there is one; the template always fills the slot.
      expect(clinicTemplate.replace(" Cargo por cancelación tardía: sin cargo.", "")).toBe(
        clinicText.replace("Cancelación tardía: cargo de", "Cargo por cancelación tardía:"),
      );
    }
  });
});
