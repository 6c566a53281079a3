import { describe, expect, it } from "vitest";
import { profileCompleteness } from "./profile-completeness";

describe("profileCompleteness", () => {
  it("counts phone, address, emergency contact and emergency phone, a quarter each", () => {
    expect(profileCompleteness({})).toEqual({
      percent: 0,
      missing: ["Teléfono", "Dirección", "Contacto de emergencia", "Teléfono de emergencia"],
    });
    expect(profileCompleteness({ phone: "+56912345678", address: "Av. Providencia 1234" })).toEqual({
      percent: 50,
      missing: ["Contacto de emergencia", "Teléfono de emergencia"],
    });
    expect(
      profileCompleteness({
        phone: "+56912345678",
        address: "Av. Providencia 1234",
        emergencyContact: "Ana Rojas",
        emergencyPhone: "+56987654321",
      }),
    ).toEqual({ percent: 100, missing: [] });
  });

  it("treats blank text and null as missing", () => {
    expect(profileCompleteness({ phone: "   ", address: null, emergencyContact: "Ana" }).missing).toEqual([
      "Teléfono",
      "Dirección",
      "Teléfono de emergencia",
    ]);
  });
});
