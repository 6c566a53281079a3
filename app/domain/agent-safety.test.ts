import { describe, expect, it } from "vitest";
import {
  classifyIntent,
  emergencyReply,
  isOwnPagePath,
  needsHandoff,
  SUGGESTED_PROMPTS,
  violatesSafety,
} from "./agent-safety";

describe("classifyIntent", () => {
  it("gives each suggested prompt its own intent", () => {
    expect(SUGGESTED_PROMPTS.map(classifyIntent)).toEqual([
      "treatment_advice",
      "predict_outcome",
      "xray",
      "booking",
      "prices",
    ]);
  });

  it("puts an emergency first, even when the message also asks for a price", () => {
    expect(
      classifyIntent("Me sangra mucho la encía después de la extracción, ¿cuánto cuesta la consulta?"),
    ).toBe("emergency");
    expect(classifyIntent("tengo la cara HINCHADA y fiebre")).toBe("emergency");
    expect(classifyIntent("Me golpeé y se me quebró un diente")).toBe("emergency");
    expect(needsHandoff("emergency")).toBe(true);
  });

  it("recognises a request for a person and distress, both handed off", () => {
    expect(classifyIntent("Quiero hablar con una persona")).toBe("human");
    expect(classifyIntent("estoy desesperada, no aguanto más")).toBe("distress");
    expect(needsHandoff("human")).toBe(true);
    expect(needsHandoff("prices")).toBe(false);
  });

  it("folds accents and case", () => {
    expect(classifyIntent("RADIOGRAFIA")).toBe("xray");
    expect(classifyIntent("qué horario tienen")).toBe("hours");
    expect(classifyIntent("hola")).toBe("general");
  });
});

describe("safety texts", () => {
  it("sends an emergency to the clinic phone and 131 at once", () => {
    const reply = emergencyReply({ phone: "+56 2 2345 6789", emergencyNumber: "131", hours: "" });
    expect(reply).toContain("+56 2 2345 6789");
    expect(reply).toContain("131");
  });

  it("flags promises and diagnoses", () => {
    expect(violatesSafety("Te garantizo que el implante durará toda la vida")).toBe(true);
    expect(violatesSafety("Tienes caries en el molar")).toBe(true);
    expect(violatesSafety("El resultado depende de tu evaluación")).toBe(false);
  });

  it("accepts only our own page paths as links", () => {
    expect(isOwnPagePath("/paciente/citas")).toBe(true);
    expect(isOwnPagePath("/blog/implantes-dentales-paso-a-paso")).toBe(true);
    expect(isOwnPagePath("//evil.example/x")).toBe(false);
    expect(isOwnPagePath("https://evil.example")).toBe(false);
    expect(isOwnPagePath("javascript:alert(1)")).toBe(false);
  });
});
