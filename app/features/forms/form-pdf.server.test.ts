import { describe, expect, it } from "vitest";
import { formPdfFileName } from "./form-pdf.server";

describe("formPdfFileName", () => {
  it("names the PDF after the form and the clinic day it was sent", () => {
    expect(formPdfFileName("antecedentes-salud", new Date("2026-11-27T15:00:00Z"))).toBe(
      "antecedentes-salud-2026-11-27.pdf",
    );
    // 22:10 on 27 November in Santiago (UTC-3) is already the 28th in UTC.
    expect(formPdfFileName("consentimiento-estetica", new Date("2026-11-28T01:10:00Z"))).toBe(
      "consentimiento-estetica-2026-11-27.pdf",
    );
    // Anything but lowercase letters, digits and dashes is dropped (the name goes into a header).
    expect(formPdfFileName('x"/../y', new Date("2026-07-01T12:00:00Z"))).toBe("xy-2026-07-01.pdf");
  });
});
