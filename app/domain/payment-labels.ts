import type { ChargeKind, ChargeStatus, PaymentStatus, RefundStatus } from "./payments";

/**
 * The Spanish words of online payments (ADR 036), one place for the patient's Mis Pagos, its receipts and the admin
 * pages. Each status carries the badge tone (components/ui/badge.tsx) it is shown with.
 */

export const chargeKindLabels: Readonly<Record<ChargeKind, string>> = {
  deposit: "Abono",
  late_cancellation: "Cargo por cancelación tardía",
  balance: "Pago de presupuesto",
};

/** A badge tone of components/ui/badge.tsx. */
export type PaymentTone = "neutral" | "info" | "good" | "bad";
type Tone = PaymentTone;

export const chargeStatusLabels: Readonly<Record<ChargeStatus, { label: string; tone: Tone }>> = {
  open: { label: "Pendiente", tone: "info" },
  paid: { label: "Pagado", tone: "good" },
  waived: { label: "Condonado", tone: "neutral" },
  void: { label: "Anulado", tone: "neutral" },
};

export const paymentStatusLabels: Readonly<Record<PaymentStatus, { label: string; tone: Tone }>> = {
  created: { label: "En proceso", tone: "info" },
  authorized: { label: "Pagado", tone: "good" },
  rejected: { label: "Rechazado", tone: "bad" },
  aborted: { label: "Anulado en Webpay", tone: "neutral" },
  expired: { label: "Expirado", tone: "neutral" },
  refunded: { label: "Reembolsado", tone: "neutral" },
  partially_refunded: { label: "Reembolsado parcialmente", tone: "neutral" },
};

export const refundStatusLabels: Readonly<Record<RefundStatus, { label: string; tone: Tone }>> = {
  pending: { label: "En proceso", tone: "info" },
  done: { label: "Reembolsado", tone: "good" },
  failed: { label: "Con problemas", tone: "bad" },
};

/** Webpay's payment_type_code, as the payer knows the way they paid. */
export const paymentMethodLabels: Readonly<Record<string, string>> = {
  VD: "Débito",
  VN: "Crédito",
  VC: "Crédito en cuotas",
  SI: "3 cuotas sin interés",
  S2: "2 cuotas sin interés",
  NC: "Cuotas sin interés",
  VP: "Prepago",
};

const UNKNOWN = { label: "Desconocido", tone: "neutral" as Tone };

/** Rows store these as text: an unexpected value reads as "Desconocido" rather than breaking the page. */
export function chargeKindLabel(kind: string): string {
  return chargeKindLabels[kind as ChargeKind] ?? "Cobro";
}

export function chargeStatusLabel(status: string) {
  return chargeStatusLabels[status as ChargeStatus] ?? UNKNOWN;
}

export function paymentStatusLabel(status: string) {
  return paymentStatusLabels[status as PaymentStatus] ?? UNKNOWN;
}

export function refundStatusLabel(status: string) {
  return refundStatusLabels[status as RefundStatus] ?? UNKNOWN;
}

/** "Débito", or null when Webpay gave no type (an attempt not authorized); an unknown code is shown as it came. */
export function paymentMethodLabel(code: string | null | undefined): string | null {
  if (!code) return null;
  return paymentMethodLabels[code] ?? code;
}

/** "···· 6623", or null without the last four digits. */
export function cardLabel(last4: string | null | undefined): string | null {
  return last4 ? `···· ${last4}` : null;
}

/**
 * How an attempt was paid, in one line: "Crédito · ···· 6623 · 3 cuotas" (Mis Pagos, /admin/pagos and its CSV say
 * it the same way), or null before Webpay answered.
 */
export function paymentMethodSummary(input: {
  paymentTypeCode: string | null;
  cardLast4: string | null;
  installments: number | null;
}): string | null {
  const parts = [
    paymentMethodLabel(input.paymentTypeCode),
    cardLabel(input.cardLast4),
    input.installments && input.installments > 1 ? `${input.installments} cuotas` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** Statuses whose payment was authorized once: these have a receipt. */
export function hasReceipt(status: string): boolean {
  return status === "authorized" || status === "refunded" || status === "partially_refunded";
}
