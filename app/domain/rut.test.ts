import { describe, expect, it } from "vitest";
import { RUT_MAX_LENGTH, RUT_MESSAGES, cleanRut, formatRut, rutCheckDigit, validateRut } from "./rut";

describe("RUT check digit (modulo 11, weights 2–7 from the right)", () => {
  it.each([
    ["12345678", "5"],
    ["12678579", "8"],
    ["15509661", "6"],
    ["41261533", "6"],
    ["10000004", "0"],
    ["10000013", "K"],
  ])("%s → %s", (body, digit) => {
    expect(rutCheckDigit(body)).toBe(digit);
  });
});

describe("validateRut", () => {
  it.each(["12.345.678-5", "12345678-5", "123456785", " 12.678.579-8 ", "15.509.661-6", "41.261.533-6"])(
    "accepts the published example %s",
    (input) => {
      const result = validateRut(input);
      expect(result.ok).toBe(true);
    },
  );

  it("answers the canonical and the display form", () => {
    expect(validateRut("12345678-5")).toEqual({ ok: true, rut: "12345678-5", formatted: "12.345.678-5" });
  });

  it("accepts check digits 0 and K, K in lower case too", () => {
    expect(validateRut("10.000.004-0")).toMatchObject({ ok: true, rut: "10000004-0" });
    expect(validateRut("10.000.013-k")).toMatchObject({ ok: true, rut: "10000013-K" });
    expect(validateRut("10000013K")).toMatchObject({ ok: true, formatted: "10.000.013-K" });
  });

  it.each([
    ["", RUT_MESSAGES.empty],
    ["   ", RUT_MESSAGES.empty],
    ["1.234.56-7", RUT_MESSAGES.length],
    ["123.456.789-01", RUT_MESSAGES.length],
    ["12.3A5.678-5", RUT_MESSAGES.body],
    ["12.345.678-X", RUT_MESSAGES.checkDigit],
    ["12.345.678-4", RUT_MESSAGES.invalid],
    ["10.000.013-0", RUT_MESSAGES.invalid],
  ])("refuses %j with %j", (input, message) => {
    expect(validateRut(input)).toEqual({ ok: false, message });
  });

  it("uses the spec's texts verbatim", () => {
    expect(Object.values(RUT_MESSAGES)).toEqual([
      "Por favor ingresa tu RUT",
      "El RUT debe tener entre 8 y 9 caracteres",
      "El cuerpo del RUT debe ser numérico",
      "El dígito verificador debe ser un número o K",
      "El RUT ingresado no es válido",
    ]);
  });
});

describe("auto-formatting", () => {
  it("keeps digits and K only, upper-case", () => {
    expect(cleanRut("12.345.678-k")).toBe("12345678K");
    expect(cleanRut("rut: 9 876 543 2")).toBe("98765432");
  });

  it("adds thousands dots and the dash as the RUT is typed", () => {
    const typed = "123456785";
    const steps = [...typed].map((_, index) => formatRut(typed.slice(0, index + 1)));
    expect(steps).toEqual([
      "1",
      "1-2",
      "12-3",
      "123-4",
      "1.234-5",
      "12.345-6",
      "123.456-7",
      "1.234.567-8",
      "12.345.678-5",
    ]);
  });

  it("never grows past the field's maximum length", () => {
    const formatted = formatRut("1234567890123");
    expect(formatted).toBe("12.345.678-9");
    expect(formatted.length).toBeLessThanOrEqual(RUT_MAX_LENGTH);
  });
});
