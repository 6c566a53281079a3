import { describe, expect, it } from "vitest";
import { optionalChileanPhone, optionalEmail } from "./validation";

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
