import type { ChargeKind, PaymentStatus } from "~/domain/payments";

/** Spanish labels of /admin/pagos and its CSV (ADR 036). Pure, client-safe. */

export const paymentStatusLabels: Record<PaymentStatus, string> = {
  created: "Pendiente",
  authorized: "Pagado",
  rejected: "Rechazado",
  aborted: "Anulado por el pagador",
  expired: "Expirado",
  refunded: "Reembolsado",
  partially_refunded: "Reembolso parcial",
};

export const chargeKindLabels: Record<ChargeKind, string> = {
  deposit: "Abono de reserva",
  late_cancellation: "Cancelación tardía",
  balance: "Saldo de presupuesto",
};

/** Who settled an attempt (payments.settled_by). */
export const settledByLabels: Record<string, string> = {
  return: "Retorno del pagador",
  reconciliation: "Conciliación",
  create: "Al crear",
  hold: "Al liberar la reserva",
};

export const PENDING_RECONCILIATION_LABEL = "Pendiente de conciliar";

/** Webpay's payment_type_code (Transbank's documented codes). */
const paymentTypeLabels: Record<string, string> = {
  VD: "Débito",
  VP: "Prepago",
  VN: "Crédito",
  VC: "Crédito en cuotas",
  SI: "3 cuotas sin interés",
  S2: "2 cuotas sin interés",
  NC: "Cuotas sin interés",
};

/** "Crédito · 3 cuotas · **** 6623", or "—" before Webpay answered. */
export function paymentMethodLabel(input: {
  paymentTypeCode: string | null;
  installments: number | null;
  cardLast4: string | null;
}): string {
  if (!input.paymentTypeCode && !input.cardLast4) return "—";
  const parts = [
    input.paymentTypeCode ? (paymentTypeLabels[input.paymentTypeCode] ?? input.paymentTypeCode) : null,
  ];
  if (input.installments && input.installments > 1) parts.push(`${input.installments} cuotas`);
  if (input.cardLast4) parts.push(`**** ${input.cardLast4}`);
  return parts.filter(Boolean).join(" · ");
}

export function paymentStatusTone(status: string): "good" | "info" | "bad" | "neutral" {
  if (status === "authorized") return "good";
  if (status === "created" || status === "partially_refunded") return "info";
  if (status === "rejected" || status === "expired" || status === "aborted") return "bad";
  return "neutral";
}

export const depositKindLabels = { none: "Sin abono", fixed: "Monto fijo", percent: "Porcentaje" } as const;
