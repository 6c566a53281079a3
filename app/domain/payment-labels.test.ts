import { describe, expect, it } from "vitest";
import {
  cardLabel,
  chargeKindLabel,
  chargeStatusLabel,
  hasReceipt,
  paymentMethodLabel,
  paymentMethodSummary,
  paymentStatusLabel,
  refundStatusLabel,
} from "./payment-labels";
import { chargeKinds, chargeStatuses, paymentStatuses, refundStatuses } from "./payments";

describe("payment labels", () => {
  it.each([
    ["deposit", "Abono"],
    ["late_cancellation", "Cargo por cancelación tardía"],
    ["balance", "Pago de presupuesto"],
  ])("charge kind %s → %s", (kind, label) => expect(chargeKindLabel(kind)).toBe(label));

  it.each([
    ["open", "Pendiente"],
    ["paid", "Pagado"],
    ["waived", "Condonado"],
    ["void", "Anulado"],
  ])("charge status %s → %s", (status, label) => expect(chargeStatusLabel(status).label).toBe(label));

  it.each([
    ["created", "En proceso"],
    ["authorized", "Pagado"],
    ["rejected", "Rechazado"],
    ["aborted", "Anulado en Webpay"],
    ["expired", "Expirado"],
    ["refunded", "Reembolsado"],
    ["partially_refunded", "Reembolsado parcialmente"],
  ])("payment status %s → %s", (status, label) => expect(paymentStatusLabel(status).label).toBe(label));

  it.each([
    ["VD", "Débito"],
    ["VN", "Crédito"],
    ["VC", "Crédito en cuotas"],
    ["SI", "3 cuotas sin interés"],
    ["S2", "2 cuotas sin interés"],
    ["NC", "Cuotas sin interés"],
    ["VP", "Prepago"],
    ["ZZ", "ZZ"],
  ])("method %s → %s", (code, label) => expect(paymentMethodLabel(code)).toBe(label));

  it("labels every status the schema allows", () => {
    for (const kind of chargeKinds) expect(chargeKindLabel(kind)).not.toBe("Cobro");
    for (const status of chargeStatuses) expect(chargeStatusLabel(status).label).not.toBe("Desconocido");
    for (const status of paymentStatuses) expect(paymentStatusLabel(status).label).not.toBe("Desconocido");
    for (const status of refundStatuses) expect(refundStatusLabel(status).label).not.toBe("Desconocido");
  });

  it("reads unknown values without failing", () => {
    expect(paymentStatusLabel("weird").label).toBe("Desconocido");
    expect(paymentMethodLabel(null)).toBeNull();
    expect(cardLabel(null)).toBeNull();
    expect(cardLabel("6623")).toBe("···· 6623");
  });

  it("says how an attempt was paid in one line, the same on Mis Pagos and /admin/pagos", () => {
    expect(paymentMethodSummary({ paymentTypeCode: "VC", cardLast4: "6623", installments: 3 })).toBe(
      "Crédito en cuotas · ···· 6623 · 3 cuotas",
    );
    expect(paymentMethodSummary({ paymentTypeCode: "VD", cardLast4: null, installments: 1 })).toBe("Débito");
    expect(paymentMethodSummary({ paymentTypeCode: null, cardLast4: null, installments: null })).toBeNull();
  });

  it("gives a receipt only to payments that were authorized", () => {
    expect(paymentStatuses.filter(hasReceipt)).toEqual(["authorized", "refunded", "partially_refunded"]);
  });
});
