import { describe, expect, it } from "vitest";
import {
  advisorLeadMessage,
  firstNameOf,
  leadWhatsappLink,
  patientLeadMessage,
  waMeLink,
  type LeadMessageFacts,
} from "./lead-messages";

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

describe("firstNameOf", () => {
  it("takes the first word of a name, whatever the spacing", () => {
    expect(firstNameOf("  Ana   María Pérez ")).toBe("Ana");
    expect(firstNameOf("")).toBe("");
  });
});

describe("WhatsApp links", () => {
  it("waMeLink opens a chat with the number's digits and the text encoded", () => {
    expect(waMeLink("+56 9 1234 5678", "Hola, ¿qué tal?")).toBe(
      `https://wa.me/56912345678?text=${encodeURIComponent("Hola, ¿qué tal?")}`,
    );
  });

  it("leadWhatsappLink greets the lead by first name and names the treatment in lower case", () => {
    const link = new URL(leadWhatsappLink("+56912345678", "Ana Pérez", "Implantes dentales", "Río Clínica"));
    expect(link.origin + link.pathname).toBe("https://wa.me/56912345678");
    expect(link.searchParams.get("text")).toBe(
      "Hola Ana, te saluda el equipo de Río Clínica. Recibimos tu consulta sobre implantes dentales y queremos ayudarte. ¿Cuándo te acomoda que conversemos?",
    );
  });
});
