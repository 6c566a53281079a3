import { renderPdf } from "~/lib/pdf.server";

/** What a payment receipt states (ADR 036): everything already formatted in Spanish, amounts in CLP. */
export interface ReceiptData {
  patientName: string | null;
  patientRut: string | null;
  dateLabel: string;
  concept: string;
  kindLabel: string;
  amountLabel: string;
  buyOrder: string;
  authorizationCode: string | null;
  cardLabel: string | null;
  methodLabel: string | null;
  installments: number | null;
  statusLabel: string;
  refunds: Array<{ dateLabel: string; amountLabel: string; statusLabel: string }>;
}

export interface ReceiptIssuer {
  name: string;
  address?: string | null;
  /** The clinic's RUT, when the deployment configures one. */
  rut?: string | null;
}

export const RECEIPT_TITLE = "Comprobante de pago";

export function receiptFileName(buyOrder: string) {
  return `comprobante-${buyOrder.replace(/[^A-Za-z0-9_-]/g, "")}.pdf`;
}

/** A one-page A4 receipt; `compress: false` only for tests that read its text. */
export function renderReceiptPdf(
  receipt: ReceiptData,
  issuer: ReceiptIssuer,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  return renderPdf(
    {
      margin: 64,
      info: { Title: RECEIPT_TITLE, Author: issuer.name, Subject: receipt.concept },
      compress: options.compress,
    },
    (doc) => {
      doc.fillColor("#0f172a").font("Helvetica-Bold").fontSize(14).text(issuer.name);
      doc.font("Helvetica").fontSize(10).fillColor("#475569");
      if (issuer.address) doc.text(issuer.address);
      if (issuer.rut) doc.text(`RUT ${issuer.rut}`);
      doc.moveDown(1.5).fillColor("#0f172a").font("Helvetica-Bold").fontSize(22).text(RECEIPT_TITLE);
      doc.moveDown(1);

      const rows: Array<[string, string | null]> = [
        ["Paciente", receipt.patientName],
        ["RUT", receipt.patientRut],
        ["Fecha y hora", receipt.dateLabel],
        ["Concepto", receipt.concept],
        ["Tipo de cobro", receipt.kindLabel],
        ["Monto", receipt.amountLabel],
        ["Orden de compra", receipt.buyOrder],
        ["Código de autorización", receipt.authorizationCode],
        ["Tarjeta", receipt.cardLabel],
        ["Forma de pago", receipt.methodLabel],
        ["Cuotas", receipt.installments && receipt.installments > 0 ? String(receipt.installments) : null],
        ["Estado", receipt.statusLabel],
      ];
      for (const [label, value] of rows) {
        if (!value) continue;
        doc.font("Helvetica-Bold").fontSize(11).text(`${label}: `, { continued: true });
        doc.font("Helvetica").text(value);
        doc.moveDown(0.3);
      }

      if (receipt.refunds.length > 0) {
        doc.moveDown(1).font("Helvetica-Bold").fontSize(14).text("Reembolsos");
        doc.moveDown(0.4).font("Helvetica").fontSize(11);
        for (const refund of receipt.refunds) {
          doc.text(`${refund.dateLabel} · ${refund.amountLabel} · ${refund.statusLabel}`);
          doc.moveDown(0.2);
        }
      }

      doc.moveDown(2).fillColor("#475569").fontSize(9).text("Pago procesado por Webpay Plus (Transbank).");
    },
  );
}
