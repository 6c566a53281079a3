import { describe, expect, it } from "vitest";
import { advisorReply, type AdvisorFacts } from "./advisor-replies";
import { classifyIntent } from "./agent-safety";
import { helperTopic } from "./helper-replies";
import { hasKeyword, normalizeForMatching } from "./keyword-match";

// Issue 24, item 2: keywords match whole words (accents folded), never inside another word.

describe("hasKeyword", () => {
  it.each([
    ["me duele ahora", "hora", false],
    ["a que hora abren", "hora", true],
    ["Hora: 10", "hora", true],
    ["¿horas disponibles?", "hora", false],
    ["tengo un implante", "implante*", true],
    ["dos implantes", "implante*", true],
    ["suplantes", "implante*", false],
    ["la encía hinchada", "hinchad*", true],
    ["precioso día", "precio", false],
    ["el precio.", "precio", true],
    ["Dirección, por favor", "direccion*", true],
    ["quiero una cita", "cita*", true],
    ["me solicitaron exámenes", "cita*", false],
    ["felicitaciones", "cita*", false],
    ["agendar una hora para mañana", "hora para", true],
  ])("%j has %j: %s", (text, keyword, expected) => {
    expect(hasKeyword(normalizeForMatching(text), keyword)).toBe(expected);
  });
});

const facts: AdvisorFacts = {
  clinicName: "Clínica",
  phone: "+56 2 2345 6789",
  whatsapp: "+56 9 8765 4321",
  email: "contacto@clinica.example",
  address: "Av. Providencia 1234",
  hours: "lunes a viernes de 9:00 a 18:00",
  saturday: "Sábados: consultar disponibilidad",
  website: "https://clinica.example",
} as AdvisorFacts;

describe("a keyword inside another word does not decide the reply", () => {
  it.each([
    // "hora" is inside "ahora": a patient in pain gets the urgent answer, not how to book.
    ["me duele ahora", "emergency"],
    ["Me duele ahora mismo", "emergency"],
    ["quiero agendar una cita", "appointment"],
    ["¿tienen hora el lunes?", "appointment"],
    // "cita" inside "felicitaciones", "precio" inside "precioso": no rule applies, the help menu answers.
    ["felicitaciones por el servicio", "general"],
  ])("Asesor Virtual: %j → %s", (message, type) => {
    expect(advisorReply(message, facts).type).toBe(type);
  });

  it.each([
    ["me duele ahora", "pain"],
    ["ahora no puedo", "default"],
    ["¿cuánto vale un implante?", "implants"],
    ["qué precioso lugar", "default"],
    ["necesito un turno", "appointments"],
    ["quiero agendar", "appointments"],
  ])("landing helper: %j → %s", (message, topic) => {
    expect(helperTopic(message)).toBe(topic);
  });

  it.each([
    ["me duele ahora", "general"],
    ["preservar mis dientes", "general"],
    ["es inhumano esperar", "general"],
    ["quiero hablar con un humano", "human"],
    ["quiero reservar una hora para el lunes", "booking"],
    ["¿cuál es el valor?", "prices"],
    ["el resultado de mi implante", "predict_outcome"],
    ["¿abren el sábado?", "hours"],
    ["los sabren", "general"],
  ])("virtual dentist: %j → %s", (message, intent) => {
    expect(classifyIntent(message)).toBe(intent);
  });
});
