import { describe, expect, it } from "vitest";
import { authTexts } from "~/i18n/auth-messages";
import { passwordMeetsRule } from "~/domain/password-rule";
import { signUpSchema, stepUpSchema } from "./auth-schemas";

describe("passwordMeetsRule", () => {
  it.each(["clinica2026", "Ñandú2026", "a1234567", "x".repeat(127) + "1"])("accepts %s", (password) => {
    expect(passwordMeetsRule(password)).toBe(true);
  });
  it.each(["short1", "12345678", "abcdefgh", "", "x".repeat(128) + "1"])("refuses %j", (password) => {
    expect(passwordMeetsRule(password)).toBe(false);
  });
});

describe("signUpSchema", () => {
  const schema = signUpSchema(authTexts.es);
  it("normalises e-mail and phone", () => {
    const parsed = schema.parse({
      firstName: " Ana ",
      lastName: "Pérez",
      email: " Ana@Correo.CL ",
      password: "clinica2026",
      phone: "9 8765 4321",
    });
    expect(parsed).toMatchObject({ firstName: "Ana", email: "ana@correo.cl", phone: "+56987654321" });
  });
  it("gives the rule's Spanish message for a weak password", () => {
    const result = schema.safeParse({ firstName: "A", lastName: "B", email: "a@b.cl", password: "abc" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(authTexts.es.passwordTooShort);
  });
  it("treats an empty phone as none and refuses a foreign one", () => {
    expect(
      schema.parse({ firstName: "A", lastName: "B", email: "a@b.cl", password: "abcdefg1" }).phone,
    ).toBeNull();
    expect(
      schema.safeParse({
        firstName: "A",
        lastName: "B",
        email: "a@b.cl",
        password: "abcdefg1",
        phone: "+1 555",
      }).success,
    ).toBe(false);
  });
});

describe("stepUpSchema", () => {
  const schema = stepUpSchema(authTexts.es);
  it("takes the e-mailed code as typed, with spaces or dashes", () => {
    expect(schema.parse({ code: " 123 456 " }).code).toBe("123456");
    expect(schema.parse({ code: "123-456", redirectTo: "/paciente" })).toEqual({
      code: "123456",
      redirectTo: "/paciente",
    });
  });
  it.each(["12345", "1234567", "12345a", ""])("refuses %j with the Spanish message", (code) => {
    const parsed = schema.safeParse({ code });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe("Ingresa el código de 6 dígitos del correo.");
  });
});
