import { describe, expect, it } from "vitest";
import { advisorReply, advisorWelcome } from "./advisor-replies";

const facts = {
  clinicName: "Río Clínica",
  phone: "+56 2 2345 6789",
  whatsapp: "+56 9 8765 4321",
  email: "contacto@clinica.example",
  address: "Av. Providencia 1234, piso 18, oficina 189, Providencia, Santiago",
  hours: "Lunes a viernes, 9:00 a 18:00 hrs",
  saturday: "Sábados: consultar disponibilidad",
  website: "https://clinica.example",
  emergencyNumber: "131",
};

describe("advisorReply (spec 000 §7)", () => {
  it.each([
    ["quiero agendar una cita", "appointment"],
    ["¿A qué HORA atienden?", "appointment"],
    ["me duele una muela", "emergency"],
    ["tengo una URGENCIA", "emergency"],
    ["¿cuál es el precio de una limpieza?", "general"],
    // The menu's own words: "TRATAMIENTOS: qué hacemos y cuánto cuesta".
    ["¿Cuánto cuesta un blanqueamiento?", "general"],
    ["¿cuánto cuestan los implantes?", "general"],
    ["¿qué valor tiene la limpieza?", "general"],
    ["necesito el teléfono", "general"],
    ["Dirección por favor", "general"],
    ["hola", "general"],
  ])("%j → %s", (message, type) => {
    expect(advisorReply(message, facts).type).toBe(type);
  });

  it("applies the rules in order: an appointment word wins over pain", () => {
    expect(advisorReply("me duele, necesito una cita", facts).type).toBe("appointment");
  });

  it("answers with the right content", () => {
    expect(advisorReply("quiero agendar una cita", facts).content).toContain("Mis Citas");
    expect(advisorReply("quiero agendar una cita", facts).content).toContain("24 horas");
    const emergency = advisorReply("me duele una muela", facts).content;
    expect(emergency).toContain("+56 2 2345 6789");
    expect(emergency).toContain("15 minutos");
    expect(emergency).toContain("131");
    expect(advisorReply("precio", facts).content).toContain("evaluación es gratuita");
    expect(advisorReply("¿Cuánto cuesta?", facts).content).toContain("evaluación es gratuita");
    expect(advisorReply("contacto", facts).content).toContain("consultar disponibilidad");
    const menu = advisorReply("hola", facts).content;
    for (const keyword of ["CITAS", "TRATAMIENTOS", "CONTACTO", "EMERGENCIA"])
      expect(menu).toContain(keyword);
  });

  it("uses the clinic's hours, not 8:00-20:00", () => {
    expect(advisorReply("cita", facts).content).toContain("9:00 a 18:00");
    expect(advisorReply("cita", facts).content).not.toContain("20:00");
  });

  it("welcomes by first name", () => {
    expect(advisorWelcome("Ana").content).toMatch(/^¡Hola Ana!/);
  });
});

describe("the appointment answer's policy lines, built from the rules' constants", () => {
  it("read exactly as before", () => {
    const lines = advisorReply("quiero agendar una cita", facts).content.split("\n");
    expect(lines).toContain("• Confirma tu cita hasta 24 horas antes, por teléfono o desde «Mis Citas».");
    expect(lines).toContain("• Para cancelar sin costo, avísanos con al menos 24 horas de anticipación.");
  });
});
