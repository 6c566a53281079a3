import { and, desc, eq, exists, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { hotStatement } from "~/db/pglite-statements.server";
import { appointments, charges, payments } from "~/db/schema";
import { heldPayment, paymentHoldings } from "./payment-service.server";
import { formatCLP } from "~/domain/format";
import type { PaymentStatus } from "~/domain/payments";
import { AppError } from "~/lib/base/errors";
import type { CheckoutView, PaymentResultView, ResultState } from "./components/payment-pages";

/**
 * What the patient's payment pages read (ADR 036): an attempt, always selected by its id AND the session's patient,
 * so another patient's id reads the same as an unknown one (404, nothing told).
 */

export interface PatientPayment {
  id: string;
  status: PaymentStatus;
  amount: number;
  token: string | null;
  formUrl: string | null;
  authorizationCode: string | null;
  cardLast4: string | null;
  chargeId: string;
  chargeKind: string;
  chargeStatus: string;
  concept: string;
  appointmentId: string | null;
  appointmentStatus: string | null;
  appointmentStartsAt: Date | null;
}

export async function patientPayment(
  db: Pick<Database, "select">,
  patientId: string,
  paymentId: string,
): Promise<PatientPayment | null> {
  const [row] = await db
    .select({
      id: payments.id,
      status: payments.status,
      amount: payments.amount,
      token: payments.token,
      formUrl: payments.formUrl,
      authorizationCode: payments.authorizationCode,
      cardLast4: payments.cardLast4,
      chargeId: charges.id,
      chargeKind: charges.kind,
      chargeStatus: charges.status,
      concept: charges.concept,
      appointmentId: charges.appointmentId,
      appointmentStatus: appointments.status,
      appointmentStartsAt: appointments.startsAt,
    })
    .from(payments)
    .innerJoin(charges, eq(charges.id, payments.chargeId))
    .leftJoin(appointments, eq(appointments.id, charges.appointmentId))
    .where(and(eq(payments.id, paymentId), eq(payments.patientId, patientId)))
    .limit(1);
  return row ? { ...row, status: row.status as PaymentStatus } : null;
}

/**
 * The open deposit charge of one of the patient's appointments ('Pagar abono', 'Reintentar pago' on Mis Citas):
 * found by the appointment AND the session's patient, never by a charge id the browser sends.
 */
export async function openDepositChargeOf(
  db: Pick<Database, "select">,
  patientId: string,
  appointmentId: string,
): Promise<string> {
  const [row] = await db
    .select({ id: charges.id })
    .from(charges)
    .innerJoin(appointments, eq(appointments.id, charges.appointmentId))
    .where(
      and(
        eq(charges.appointmentId, appointmentId),
        eq(charges.patientId, patientId),
        eq(appointments.patientId, patientId),
        eq(charges.kind, "deposit"),
        eq(charges.status, "open"),
      ),
    )
    .orderBy(desc(charges.createdAt))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Esta cita no tiene un abono pendiente de pago.");
  return row.id;
}

/**
 * The deposit paid and not yet refunded on each of the patient's appointments (the cancel dialog's money part);
 * appointments of another patient are left out.
 */
export async function depositsPaidByAppointment(
  db: Pick<Database, "select">,
  patientId: string,
  appointmentIds: readonly string[],
): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  if (appointmentIds.length === 0) return result;
  for (const row of await paidDepositRows(db, { patientId, appointmentIds: [...appointmentIds] })) {
    if (!row.appointmentId) continue;
    const available = row.amount - row.refunded - row.pending;
    result.set(row.appointmentId, (result.get(row.appointmentId) ?? 0) + available);
  }
  for (const [appointmentId, paid] of result) if (paid <= 0) result.delete(appointmentId);
  return result;
}

const owned = alias(charges, "owned");

/*
 * What depositPaidFor reads for each appointment (its deposit charges' payments still authorised, less what was
 * refunded or is being refunded), for every appointment of `appointmentIds` that has a deposit charge of this
 * patient, open or paid: one statement for the whole page instead of one per appointment. A hot statement
 * (ADR 053; the ids as one uuid[] parameter).
 */
const paidDepositRows = hotStatement("paid_deposits_by_appointment", (db) =>
  db
    .select({ appointmentId: charges.appointmentId, ...paymentHoldings })
    .from(payments)
    .innerJoin(charges, eq(charges.id, payments.chargeId))
    .where(
      and(
        sql`${charges.appointmentId} = any(${sql.placeholder("appointmentIds")}::uuid[])`,
        eq(charges.kind, "deposit"),
        heldPayment(),
        exists(
          db
            .select({ one: sql`1` })
            .from(owned)
            .where(
              and(
                eq(owned.appointmentId, charges.appointmentId),
                eq(owned.patientId, sql.placeholder("patientId")),
                eq(owned.kind, "deposit"),
                inArray(owned.status, ["paid", "open"]),
              ),
            ),
        ),
      ),
    ),
);

/** The outcome the result page tells: a refunded payment was still approved. */
export function resultStateOf(status: PaymentStatus): ResultState {
  if (status === "refunded" || status === "partially_refunded") return "authorized";
  return status;
}

/** The result page's DTO, field by field. */
export function paymentResultView(payment: PatientPayment, online: boolean): PaymentResultView {
  const state = resultStateOf(payment.status);
  const isDeposit = payment.chargeKind === "deposit";
  const failed = state === "rejected" || state === "aborted" || state === "expired";
  // A deposit can be paid again only while its booking waits for it or was released unpaid (payCharge takes it
  // back if the slot is still free); another charge while it is open.
  const bookingPayable =
    !isDeposit ||
    payment.appointmentStatus === "pending_payment" ||
    payment.appointmentStatus === "payment_failed";
  const upcoming = !payment.appointmentStartsAt || payment.appointmentStartsAt.getTime() > Date.now();
  return {
    paymentId: payment.id,
    state,
    concept: payment.concept,
    amountLabel: formatCLP(payment.amount),
    authorizationCode: state === "authorized" ? payment.authorizationCode : null,
    cardLast4: state === "authorized" ? payment.cardLast4 : null,
    isDeposit,
    appointmentConfirmed: isDeposit && payment.appointmentStatus === "confirmed",
    slotReleased: isDeposit && payment.appointmentStatus === "payment_failed",
    canRetry: failed && online && payment.chargeStatus === "open" && bookingPayable && upcoming,
  };
}

/** The checkout page's DTO; null once the attempt can no longer be paid on Webpay's form. */
export function checkoutView(payment: PatientPayment): CheckoutView | null {
  if (payment.status !== "created" || !payment.token || !payment.formUrl) return null;
  return {
    concept: payment.concept,
    amountLabel: formatCLP(payment.amount),
    formUrl: payment.formUrl,
    token: payment.token,
  };
}
