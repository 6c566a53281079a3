import { describe, expect, it } from "vitest";
import { pdfText } from "../../../tests/setup/pdf-text";
import { receiptFileName, renderReceiptPdf, type ReceiptData } from "./payment-receipt-pdf.server";

const receipt: ReceiptData = {
  patientName: "Ana Muñoz",
  patientRut: "12.345.678-5",
  dateLabel: "15-01-2026, 09:30",
  concept: "Abono: Implante dental",
  kindLabel: "Abono",
  amountLabel: "$45.000",
  buyOrder: "RC1ABC2DEF",
  authorizationCode: "1213",
  cardLabel: "···· 6623",
  methodLabel: "Débito",
  installments: 0,
  statusLabel: "Reembolsado parcialmente",
  refunds: [{ dateLabel: "16-01-2026, 10:00", amountLabel: "$5.000", statusLabel: "Reembolsado" }],
};

describe("renderReceiptPdf", () => {
  it.each([true, false])("writes every fact of the receipt (compressed: %s)", async (compress) => {
    const pdf = await renderReceiptPdf(
      receipt,
      { name: "Río Clínica", address: "Av. Siempre Viva 123, Santiago", rut: "76.123.456-7" },
      { compress },
    );
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdfText(pdf);
    for (const expected of [
      "Comprobante de pago",
      "Río Clínica",
      "Av. Siempre Viva 123, Santiago",
      "RUT 76.123.456-7",
      "Ana Muñoz",
      "12.345.678-5",
      "15-01-2026, 09:30",
      "Abono: Implante dental",
      "$45.000",
      "RC1ABC2DEF",
      "1213",
      "···· 6623",
      "Débito",
      "Reembolsos",
      "$5.000",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("leaves out what is not known", async () => {
    const pdf = await renderReceiptPdf(
      { ...receipt, patientRut: null, authorizationCode: null, refunds: [] },
      { name: "Río Clínica" },
    );
    const text = pdfText(pdf);
    expect(text).not.toContain("RUT");
    expect(text).not.toContain("Reembolsos");
  });

  it("names the file after the buy order", () => {
    expect(receiptFileName("RC1ABC2DEF")).toBe("comprobante-RC1ABC2DEF.pdf");
  });
});
