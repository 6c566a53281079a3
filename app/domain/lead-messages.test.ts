import { describe, expect, it } from "vitest";
import { advisorLeadMessage, patientLeadMessage, type LeadMessageFacts } from "./lead-messages";

const base: LeadMessageFacts = {
  clinicName: "Río Clínica",
  clinicHours: "Lun-Vie 9:00-18:00",
  name: " Ana  Pérez ",
  phone: "+56912345678",
  treatment: "Implantes dentales",
  level: "hot",
  levelLabel: "Caliente",
  score: 85,
  source: "Web",
};

describe("advisorLeadMessage", () => {
  it("names the lead, the formatted phone, the treatment, the level with its score and the source", () => {
    expect(advisorLeadMessage(base)).toBe(
      [
        "Nuevo lead (Web).",
        "Nombre: Ana Pérez.",
        "Teléfono: +56 9 1234 5678.",
        "Tratamiento: Implantes dentales.",
        "Nivel: Caliente (85 puntos).",
      ].join("\n"),
    );
  });
});

describe("patientLeadMessage", () => {
  it("promises each level's follow-up within the clinic's hours and signs with the clinic", () => {
    expect(patientLeadMessage(base)).toBe(
      "Hola Ana, recibimos tu consulta sobre Implantes dentales. Un asesor te llamará en los próximos 15 minutos: tu caso es prioritario y te contactaremos de inmediato (horario de atención: Lun-Vie 9:00-18:00). Río Clínica.",
    );
    expect(patientLeadMessage({ ...base, level: "warm" })).toBe(
      "Hola Ana, recibimos tu consulta sobre Implantes dentales. Un asesor te contactará dentro de 2 a 4 horas (horario de atención: Lun-Vie 9:00-18:00). Río Clínica.",
    );
    expect(patientLeadMessage({ ...base, level: "cold" })).toBe(
      "Hola Ana, recibimos tu consulta sobre Implantes dentales. Un asesor te contactará dentro de 24 a 48 horas (horario de atención: Lun-Vie 9:00-18:00). Río Clínica.",
    );
  });
});
