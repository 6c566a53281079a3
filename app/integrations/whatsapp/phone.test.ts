import { describe, expect, it } from "vitest";
import { InvalidWhatsAppNumberError, normalizeWhatsAppNumber, toWhatsAppNumber } from "./phone";

describe("WhatsApp numbers", () => {
  it("sends digits with the country code only", () => {
    expect(normalizeWhatsAppNumber("+56912345678")).toBe("56912345678");
    expect(normalizeWhatsAppNumber("+56 9 1234 5678")).toBe("56912345678");
    expect(normalizeWhatsAppNumber("+56-9-1234-5678")).toBe("56912345678");
    expect(normalizeWhatsAppNumber("(+56) 9 1234-5678")).toBe("56912345678");
    expect(normalizeWhatsAppNumber(" 56912345678 ")).toBe("56912345678");
    expect(normalizeWhatsAppNumber("+56 2 2345 6789")).toBe("56223456789");
    expect(normalizeWhatsAppNumber("+447123456789")).toBe("447123456789");
  });

  it("accepts 8 to 15 digits and nothing else", () => {
    expect(normalizeWhatsAppNumber("12345678")).toBe("12345678");
    expect(normalizeWhatsAppNumber("123456789012345")).toBe("123456789012345");
    expect(normalizeWhatsAppNumber("1234567")).toBeNull();
    expect(normalizeWhatsAppNumber("1234567890123456")).toBeNull();
    expect(normalizeWhatsAppNumber("")).toBeNull();
    expect(normalizeWhatsAppNumber("+")).toBeNull();
    expect(normalizeWhatsAppNumber("+56 9 1234 567a")).toBeNull();
    expect(normalizeWhatsAppNumber("56.912.345.678")).toBeNull();
    expect(normalizeWhatsAppNumber("56+912345678")).toBeNull();
    expect(normalizeWhatsAppNumber("++56912345678")).toBeNull();
    expect(normalizeWhatsAppNumber("５６９１２３４５６７８")).toBeNull(); // full-width digits
  });

  it("throws a coded error that does not repeat the number", () => {
    expect(toWhatsAppNumber("+56 9 1234 5678")).toBe("56912345678");
    expect(() => toWhatsAppNumber("call me")).toThrow(InvalidWhatsAppNumberError);
    const error = (() => {
      try {
        return toWhatsAppNumber("+56 9 1234");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidWhatsAppNumberError);
    expect((error as InvalidWhatsAppNumberError).code).toBe("INVALID_PHONE");
    expect((error as Error).message).not.toContain("1234");
  });
});
