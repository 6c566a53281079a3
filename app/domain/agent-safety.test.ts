import { describe, expect, it } from "vitest";
import {
  agentTextSegments,
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
});

describe("links in the agent's text (only our own pages, as plain paths)", () => {
  it.each([
    ["/paciente/citas", true],
    ["/blog/implantes-dentales-paso-a-paso", true],
    ["/guias/guia-implantes-dentales.pdf", true],
    ["/#contacto", true],
    ["/", true],
    ["/politica-privacidad", true],
    ["//evil.example", false],
    ["//evil.example/x", false],
    ["/\\evil.example", false],
    ["/\\/evil.example", false],
    ["javascript:alert(1)", false],
    ["JavaScript:alert(1)", false],
    ["https://evil.example", false],
    ["http:evil.example", false],
    ["/auth?redirectTo=//evil.example", false],
    ["/auth", false],
    ["/auth/salir", false],
    ["/paciente/citas?redirectTo=//evil.example", false],
    ["/paciente/citas?x=1", false],
    ["/blog/%2F%2Fevil.example", false],
    ["/blog/../auth", false],
    ["/./auth", false],
    ["/equipo/conversaciones", false],
    ["/cita/cancelar/abc", false],
    ["/admin", false],
    ["/api/chat/guest", false],
    ["", false],
    ["paciente/citas", false],
    ["/paciente/citas ", false],
    ["/paciente//citas", false],
  ])("%s → %s", (href, allowed) => {
    expect(isOwnPagePath(href)).toBe(allowed);
  });

  it("renders an allowed link as a link and any other only as its label", () => {
    expect(
      agentTextSegments(
        "Agenda en [Mis Citas](/paciente/citas) o [entra aquí](/auth?redirectTo=//evil.example), [x](javascript:alert(1)).",
      ),
    ).toEqual([
      { text: "Agenda en " },
      { text: "Mis Citas", href: "/paciente/citas" },
      { text: " o " },
      { text: "entra aquí" },
      { text: ", " },
      { text: "x" },
      { text: ")." },
    ]);
    expect(agentTextSegments("sin enlaces https://evil.example")).toEqual([
      { text: "sin enlaces https://evil.example" },
    ]);
  });
});
