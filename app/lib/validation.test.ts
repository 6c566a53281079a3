import { describe, expect, it } from "vitest";
import {
  boundedText,
  chileanPhone,
  emailAddress,
  NUL_ERROR,
  optionalChileanPhone,
  optionalChileanPhoneField,
  optionalEmail,
  optionalRut,
  personName,
} from "./validation";

describe("optional fields", () => {
  it("turn empty into null and keep Spanish errors", () => {
    expect(optionalChileanPhone.parse("")).toBeNull();
    expect(optionalChileanPhone.parse("9 8765 4321")).toBe("+56987654321");
    expect(optionalChileanPhone.safeParse("123").error?.issues[0]?.message).toContain(
      "teléfono chileno válido",
    );
    expect(optionalEmail.parse(" ")).toBeNull();
    expect(optionalEmail.parse("Ana@Correo.CL")).toBe("ana@correo.cl");
    expect(optionalEmail.safeParse("no").error?.issues[0]?.message).toContain("e-mail válido");
  });
});

describe("optionalChileanPhoneField", () => {
  it("is the one optional phone rule, with the caller's message", () => {
    const field = optionalChileanPhoneField("Invalid phone").default(null);
    expect(field.parse(undefined)).toBeNull();
    expect(field.parse("   ")).toBeNull();
    expect(field.parse("+56 (2) 2345-6789")).toBe("+56223456789");
    expect(field.safeParse("555").error?.issues[0]?.message).toBe("Invalid phone");
    expect(field.safeParse("9".repeat(31)).error?.issues[0]?.message).toBe("Invalid phone");
    expect(optionalChileanPhone.default(null).parse(undefined)).toBeNull();
  });
});

describe("the shared text fields", () => {
  it("refuse a NUL character with a Spanish message (PostgreSQL cannot store it)", () => {
    const fields = [
      [personName, "Ana\u0000 Pérez"],
      [boundedText(500, "El mensaje"), "hola\u0000"],
      [chileanPhone, "+56 9 1234\u0000 5678"],
      [optionalChileanPhone, "\u0000"],
      [emailAddress, "ana\u0000@correo.cl"],
      [optionalEmail, "ana@correo.cl\u0000"],
      [optionalRut, "12.345.678-5\u0000"],
    ] as const;
    for (const [field, value] of fields) {
      expect(field.safeParse(value).error?.issues.map((issue) => issue.message)).toContain(NUL_ERROR);
    }
    expect(personName.parse(" Ana Pérez ")).toBe("Ana Pérez");
  });
});
