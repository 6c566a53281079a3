/** Mis Pagos' page data (client-safe: the route and its components read these types). */

import type { PaymentTone } from "~/domain/payment-labels";

export type { PaymentTone };

export interface PatientChargeItem {
  id: string;
  concept: string;
  kindLabel: string;
  amountLabel: string;
  /** Paid by the deposit (a late-cancellation fee), else null. */
  creditedLabel: string | null;
  due: number;
  dueLabel: string;
  status: string;
  statusLabel: string;
  statusTone: PaymentTone;
  /** Open with something left to pay: 'Pagar' is offered (when online payment is on). */
  payable: boolean;
}

export interface PatientPaymentItem {
  id: string;
  dateLabel: string;
  concept: string;
  amountLabel: string;
  status: string;
  statusLabel: string;
  statusTone: PaymentTone;
  methodLabel: string | null;
  cardLabel: string | null;
  installments: number | null;
  /** /paciente/pagos/:id/comprobante, for a payment that was authorized; else null. */
  receiptUrl: string | null;
}

export interface PatientRefundItem {
  id: string;
  paymentId: string;
  dateLabel: string;
  concept: string;
  amountLabel: string;
  statusLabel: string;
  statusTone: PaymentTone;
}

export interface PatientPaymentsPage {
  /** False when online payment is off: no 'Pagar', the clinic takes the payment. */
  onlinePayment: boolean;
  charges: PatientChargeItem[];
  payments: PatientPaymentItem[];
  refunds: PatientRefundItem[];
}

export const PAYMENTS_OFF_NOTICE =
  "El pago en línea no está disponible en este momento. Puedes pagar en la clínica.";

export function receiptPath(paymentId: string) {
  return `/paciente/pagos/${paymentId}/comprobante`;
}
