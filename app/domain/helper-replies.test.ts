import { describe, expect, it } from "vitest";
import { helperReply, helperTopic } from "./helper-replies";
import { normalizeForMatching } from "./keyword-match";

const facts = {
  phone: "+56 2 2345 6789",
  mobile: "+56 9 8765 4321",
  hours: "lunes a viernes de 9:00 a 18:00",
  emergencyNumber: "131",
};

describe("helperTopic", () => {
  it.each([
    ["quiero implantes", "implants"],
    ["¿Cuánto cuesta un IMPLÁNTE?", "implants"],
    ["me duele una muela", "pain"],
    ["Tengo una urgencia", "pain"],
    ["¿cuál es el precio?", "prices"],
    ["cuanto vale", "prices"],
    ["quiero agendar una cita", "appointments"],
    ["me interesan las carillas", "veneers"],
    ["hola", "default"],
    ["", "default"],
  ])("%j → %s", (message, topic) => {
    expect(helperTopic(message)).toBe(topic);
  });

  it("puts pain before any other topic", () => {
    expect(helperTopic("me duele el implante, ¿cuánto cuesta revisarlo?")).toBe("pain");
  });
});

describe("helperReply", () => {
  it("ends every topical reply with an offer of evaluation or specialist contact", () => {
    for (const message of ["implante", "precio", "cita", "carillas", "dolor"]) {
      const { text } = helperReply(message, facts);
      expect(text).toMatch(/evaluación gratuita|especialista/);
    }
  });
  it("uses the clinic's facts", () => {
    expect(helperReply("me duele", facts).text).toContain("+56 2 2345 6789");
    expect(helperReply("me duele", facts).text).toContain("131");
    expect(helperReply("precio", facts).text).toContain("+56 9 8765 4321");
  });
  it("normalises accents and case", () => {
    expect(normalizeForMatching("ÁÉÍÓÚ Ñandú")).toBe("aeiou nandu");
  });
});

describe("the appointments reply's reminder sentence, built from the reminder rule", () => {
  it("reads exactly as before", () => {
    expect(helperReply("quiero agendar una cita", facts).text).toContain(
      "Te recordaremos la cita con 24 horas de anticipación.",
    );
  });
});
