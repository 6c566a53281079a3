import { z } from "zod";
import type { Database } from "~/db/client.server";
import { formatClinicDateTimeNumeric, formatCLP } from "~/domain/format";
import {
  cardLabel,
  chargeKindLabel,
  chargeStatusLabel,
  hasReceipt,
  paymentMethodLabel,
  paymentStatusLabel,
  refundStatusLabel,
} from "~/domain/payment-labels";
import { chargeDue, type ChargeStatus } from "~/domain/payments";
import { formatRut } from "~/domain/rut";
import type { WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { AppError } from "~/lib/base/errors";
import { payCharge } from "./booking-payment-service.server";
import {
  receiptPath,
  type PatientChargeItem,
  type PatientPaymentItem,
  type PatientPaymentsPage,
  type PatientRefundItem,
} from "./patient-payments-dto";
import {
  chargeOfPatient,
  chargesOfPatient,
  paidOnlineByCharge,
  patientIdentity,
  paymentOfPatient,
  paymentsOfPatient,
  refundsOfPatient,
  refundsOfPayment,
} from "./patient-payments-repository.server";
import type { ReceiptData } from "./payment-receipt-pdf.server";

/**
 * Mis Pagos (ADR 036): what the signed-in patient owes, each attempt to pay and each refund, and the receipt of a
 * paid attempt. Every read is by the session's patient id: another patient's ids read as "not found".
 */

const isUuid = (value: string) => z.uuid().safeParse(value).success;
const PAYMENT_NOT_FOUND = "No encontramos ese pago.";
const CHARGE_NOT_FOUND = "No encontramos ese cobro.";

export async function patientPaymentsPage(
  db: Pick<Database, "select">,
  patientId: string,
  onlinePayment: boolean,
): Promise<PatientPaymentsPage> {
  const [chargeRows, paymentRows, refundRows] = await Promise.all([
    chargesOfPatient(db, patientId),
    paymentsOfPatient(db, patientId),
    refundsOfPatient(db, patientId),
  ]);
  const paid = await paidOnlineByCharge(
    db,
    chargeRows.map((row) => row.id),
  );
  const charges = chargeRows.map((row): PatientChargeItem => {
    const status = chargeStatusLabel(row.status);
    const due = chargeDue({ ...row, status: row.status as ChargeStatus }, paid.get(row.id) ?? 0);
    return {
      id: row.id,
      concept: row.concept,
      kindLabel: chargeKindLabel(row.kind),
      amountLabel: formatCLP(row.amount),
      creditedLabel: row.creditedAmount > 0 ? formatCLP(row.creditedAmount) : null,
      due,
      dueLabel: formatCLP(due),
      status: row.status,
      statusLabel: status.label,
      statusTone: status.tone,
      payable: row.status === "open" && due > 0,
    };
  });
  const payments = paymentRows.map(({ payment, concept }): PatientPaymentItem => {
    const status = paymentStatusLabel(payment.status);
    return {
      id: payment.id,
      dateLabel: formatClinicDateTimeNumeric(payment.transactionDate ?? payment.createdAt),
      concept,
      amountLabel: formatCLP(payment.amount),
      status: payment.status,
      statusLabel: status.label,
      statusTone: status.tone,
      methodLabel: paymentMethodLabel(payment.paymentTypeCode),
      cardLabel: cardLabel(payment.cardLast4),
      installments: payment.installments && payment.installments > 1 ? payment.installments : null,
      receiptUrl: hasReceipt(payment.status) ? receiptPath(payment.id) : null,
    };
  });
  const refunds = refundRows.map(({ refund, concept }): PatientRefundItem => {
    const status = refundStatusLabel(refund.status);
    return {
      id: refund.id,
      paymentId: refund.paymentId,
      dateLabel: formatClinicDateTimeNumeric(refund.doneAt ?? refund.createdAt),
      concept,
      amountLabel: formatCLP(refund.amount),
      statusLabel: status.label,
      statusTone: status.tone,
    };
  });
  return { onlinePayment, charges, payments, refunds };
}

/**
 * 'Pagar' on Mis Pagos: the charge must be the patient's own before anything else is looked at (payCharge checks
 * again), then a Webpay attempt; answers the attempt's id.
 */
export async function payOwnCharge(
  db: Database,
  patientId: string,
  chargeId: string,
  webpay: WebpayClient | null,
  now = new Date(),
): Promise<string> {
  if (!isUuid(chargeId) || !(await chargeOfPatient(db, patientId, chargeId))) {
    throw new AppError("NOT_FOUND", CHARGE_NOT_FOUND);
  }
  return payCharge(db, patientId, chargeId, webpay, now);
}

/** The receipt of one of the patient's payments that was authorized; NOT_FOUND for anything else. */
export async function patientReceipt(
  db: Pick<Database, "select">,
  patientId: string,
  paymentId: string,
): Promise<ReceiptData> {
  if (!isUuid(paymentId)) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
  const row = await paymentOfPatient(db, patientId, paymentId);
  if (!row || !hasReceipt(row.payment.status)) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
  const [patient, refunds] = await Promise.all([
    patientIdentity(db, patientId),
    refundsOfPayment(db, paymentId),
  ]);
  const { payment, charge } = row;
  const name = patient ? [patient.firstName, patient.lastName].filter(Boolean).join(" ").trim() : "";
  return {
    patientName: name || null,
    patientRut: patient?.rut ? formatRut(patient.rut) : null,
    dateLabel: formatClinicDateTimeNumeric(payment.transactionDate ?? payment.settledAt ?? payment.createdAt),
    concept: charge.concept,
    kindLabel: chargeKindLabel(charge.kind),
    amountLabel: formatCLP(payment.amount),
    buyOrder: payment.buyOrder,
    authorizationCode: payment.authorizationCode,
    cardLabel: cardLabel(payment.cardLast4),
    methodLabel: paymentMethodLabel(payment.paymentTypeCode),
    installments: payment.installments,
    statusLabel: paymentStatusLabel(payment.status).label,
    refunds: refunds.map((refund) => ({
      dateLabel: formatClinicDateTimeNumeric(refund.doneAt ?? refund.createdAt),
      amountLabel: formatCLP(refund.amount),
      statusLabel: refundStatusLabel(refund.status).label,
    })),
  };
}
