import { describe, expect, it } from "vitest";
import { optionalChileanPhone, optionalChileanPhoneField, optionalEmail } from "./validation";

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
