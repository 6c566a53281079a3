import { describe, expect, it } from "vitest";
import { redactPersonalData } from "./personal-data-redaction";

describe("redactPersonalData", () => {
  it.each([
    ["mi correo es Ana.Perez@Example.cl, escríbanme", "mi correo es [correo], escríbanme"],
    ["mi RUT es 12.345.678-5", "mi RUT es [RUT]"],
    ["rut 9876543-k por favor", "rut [RUT] por favor"],
    ["llámenme al +56 9 1234 5678", "llámenme al [teléfono]"],
    ["o al 912345678.", "o al [teléfono]."],
    ["fono (2) 2345-6789", "fono [teléfono]"],
    ["tengo 3 dientes y 45 años", "tengo 3 dientes y 45 años"],
    ["¿cuánto cuesta un implante?", "¿cuánto cuesta un implante?"],
  ])("%s", (input, expected) => {
    expect(redactPersonalData(input)).toBe(expected);
  });

  it("hides the person's known names as whole words, any case, not inside other words", () => {
    expect(
      redactPersonalData("Hola, soy ANA González; mi hija Anastasia come banana", {
        names: ["Ana", "González"],
      }),
    ).toBe("Hola, soy [nombre] [nombre]; mi hija Anastasia come banana");
  });

  it("ignores the placeholder names an anonymous guest gets", () => {
    expect(redactPersonalData("Anonymous Visitor pregunta", { names: ["Anonymous Visitor"] })).toBe(
      "Anonymous Visitor pregunta",
    );
  });
});
