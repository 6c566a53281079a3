import { randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { appointments, charges, paymentRefunds, payments } from "~/db/schema";
import {
  authorizedDepositOutcome,
  buyOrderOf,
  chargeDue,
  COMMIT_CLAIM_SECONDS,
  formExpiresAt,
  holdReleaseDecision,
  outcomeOfWebpayStatus,
  paymentTransition,
  reconciliationStep,
  type ChargeStatus,
  type PaymentOutcome,
  type PaymentStatus,
} from "~/domain/payments";
import { confirmPaidBooking, releaseHeldBooking } from "~/features/appointments/appointment-service.server";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import {
  WebpayError,
  type WebpayClient,
  type WebpayTransaction,
} from "~/integrations/webpay/webpay-client.server";
import { publicBaseUrl } from "~/lib/base/env.server";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import { countPaymentSettled } from "~/lib/metrics.server";
import { notifyPayment } from "./payment-notifications.server";
import { requestRefund } from "./refund-service.server";

/**
 * Paying a charge through Webpay Plus (ADR 036): one attempt per buy order; the payer's return and the
 * reconciliation job both settle an attempt through `settleAttempt`, which commits at most once (a claim) and writes
 * the outcome at most once (the row lock and the state machine), so a return hit twice, two tabs or a commit racing
 * the job never credit twice.
 */

/** Where Webpay sends the payer back: keyed by the token we issued, never by the session (ADR 036). */
export const WEBPAY_RETURN_PATH = "/pagos/webpay/retorno";

export function webpayReturnUrl() {
  return `${publicBaseUrl()}${WEBPAY_RETURN_PATH}`;
}

const PAYMENTS_OFF =
  "El pago en línea no está disponible en este momento. Llámanos para pagar en la clínica.";
const NOT_FOUND = "No encontramos ese pago.";

type PaymentRow = typeof payments.$inferSelect;
type ChargeRow = typeof charges.$inferSelect;

function newBuyOrder(now: Date) {
  return buyOrderOf(now.getTime(), BigInt(`0x${randomBytes(10).toString("hex")}`).toString(36));
}

/** The attempt of a charge still open on Webpay's form (two tabs share it rather than pay twice). */
async function openAttempt(db: Pick<Database, "select">, chargeId: string, now: Date) {
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.chargeId, chargeId),
        eq(payments.status, "created"),
        isNotNull(payments.token),
        isNull(payments.returnedAt),
        sql`${payments.formExpiresAt} > ${now}`,
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row;
}

/**
 * A new attempt to pay what is due on one of the patient's open charges: the row first (so a crash leaves a trace the
 * reconciliation expires), then Webpay's token. A Webpay that cannot be reached ends the attempt at once with its
 * reason; the caller shows it with 'Reintentar pago'. Answers the attempt's id.
 */
export async function startAttempt(
  db: Database,
  patientId: string,
  chargeId: string,
  webpay: WebpayClient | null,
  now = new Date(),
): Promise<string> {
  if (!webpay) throw new AppError("CONFLICT", PAYMENTS_OFF);
  const existing = await openAttempt(db, chargeId, now);
  if (existing && existing.patientId === patientId) return existing.id;
  const attempt = await db.transaction(async (tx) => {
    const [charge] = await tx
      .select()
      .from(charges)
      .where(and(eq(charges.id, chargeId), eq(charges.patientId, patientId)))
      .for("update");
    if (!charge) throw new AppError("NOT_FOUND", "No encontramos ese cobro.");
    const amount = chargeDue({ ...charge, status: charge.status as ChargeStatus }, 0);
    if (amount <= 0) throw new AppError("CONFLICT", "Este cobro ya no tiene un monto pendiente.");
    if (charge.kind === "deposit") {
      const [booking] = charge.appointmentId
        ? await tx
            .select({ status: appointments.status })
            .from(appointments)
            .where(eq(appointments.id, charge.appointmentId))
        : [];
      if (booking?.status !== "pending_payment") {
        throw new AppError("CONFLICT", "Esta cita ya no espera su abono. Revisa Mis Citas.");
      }
    }
    const [row] = await tx
      .insert(payments)
      .values({
        chargeId,
        patientId,
        buyOrder: newBuyOrder(now),
        sessionId: randomBytes(12).toString("hex"),
        amount,
        formExpiresAt: formExpiresAt(now),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error("insert returned nothing");
    return row;
  });
  try {
    const created = await webpay.create({
      buyOrder: attempt.buyOrder,
      sessionId: attempt.sessionId,
      amount: attempt.amount,
      returnUrl: webpayReturnUrl(),
    });
    await db
      .update(payments)
      .set({ token: created.token, formUrl: created.url, updatedAt: new Date() })
      .where(eq(payments.id, attempt.id));
  } catch (error) {
    logger.warn({ paymentId: attempt.id, err: error }, "webpay transaction could not be created");
    await applyOutcome(db, attempt.id, "expired", null, now, "create", describeError(error));
  }
  return attempt.id;
}

function describeError(error: unknown) {
  if (error instanceof WebpayError)
    return `${error.kind}${error.httpStatus ? ` ${error.httpStatus}` : ""}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** What the payer's browser brought back from Webpay (ADR 036 lists the three shapes). */
export interface WebpayReturn {
  tokenWs?: string;
  tbkToken?: string;
  tbkOrder?: string;
  tbkSession?: string;
}

/**
 * The payer is back: approved or rejected (token_ws), aborted on the form (TBK_TOKEN), or the form timed out (only
 * TBK_ORDEN_COMPRA and TBK_ID_SESION). Only an attempt we issued is touched: an unknown token or order answers
 * null and changes nothing. Answers the attempt's id and its state after settling.
 */
export async function handleWebpayReturn(
  db: Database,
  input: WebpayReturn,
  webpay: WebpayClient | null,
  now = new Date(),
): Promise<{ paymentId: string; patientId: string } | null> {
  const token = input.tokenWs ?? input.tbkToken;
  const [row] = token
    ? await db.select().from(payments).where(eq(payments.token, token)).limit(1)
    : input.tbkOrder && input.tbkSession
      ? await db
          .select()
          .from(payments)
          .where(and(eq(payments.buyOrder, input.tbkOrder), eq(payments.sessionId, input.tbkSession)))
          .limit(1)
      : [];
  if (!row) return null;
  await db
    .update(payments)
    .set({ returnedAt: now, updatedAt: now })
    .where(and(eq(payments.id, row.id), isNull(payments.returnedAt)));
  const found = { paymentId: row.id, patientId: row.patientId };
  if (row.status !== "created") return found;
  // token_ws together with TBK_TOKEN is Webpay's answer for an error on the form: nothing was paid.
  if (input.tbkToken) {
    await applyOutcome(db, row.id, "aborted", null, now, "return");
  } else if (!input.tokenWs) {
    await applyOutcome(db, row.id, "expired", null, now, "return");
  } else {
    await settleAttempt(db, row.id, webpay, now, "return");
  }
  return found;
}

/**
 * Commits an attempt and records its outcome. The commit is claimed first (one caller at a time, a stale claim is
 * taken over); a commit Webpay refuses (already committed, or never approved) is followed by a status query, which
 * is how a crash between our commit and our write is recovered. A timeout leaves the attempt open for the
 * reconciliation. Answers the attempt's status afterwards.
 */
export async function settleAttempt(
  db: Database,
  paymentId: string,
  webpay: WebpayClient | null,
  now = new Date(),
  by: "return" | "reconciliation" = "return",
): Promise<PaymentStatus> {
  const staleBefore = new Date(now.getTime() - COMMIT_CLAIM_SECONDS * 1000);
  const [claimed] = await db
    .update(payments)
    .set({ commitClaimedAt: now, updatedAt: now })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.status, "created"),
        isNotNull(payments.token),
        or(isNull(payments.commitClaimedAt), lt(payments.commitClaimedAt, staleBefore)),
      ),
    )
    .returning();
  if (!claimed?.token || !webpay) return currentStatus(db, paymentId);
  const formOver = now.getTime() >= claimed.formExpiresAt.getTime();
  let transaction: WebpayTransaction;
  try {
    transaction = await webpay.commit(claimed.token);
  } catch (error) {
    if (!(error instanceof WebpayError) || error.kind !== "rejected") {
      await recordCheckFailure(db, paymentId, now, error);
      return "created";
    }
    try {
      transaction = await webpay.status(claimed.token);
    } catch (statusError) {
      await recordCheckFailure(db, paymentId, now, statusError);
      return "created";
    }
  }
  const outcome = outcomeOfWebpayStatus(
    transaction.status,
    transaction.responseCode,
    formOver || Boolean(claimed.returnedAt),
  );
  if (!outcome) {
    await db
      .update(payments)
      .set({ commitClaimedAt: null, lastCheckedAt: now })
      .where(eq(payments.id, paymentId));
    return "created";
  }
  return applyOutcome(db, paymentId, outcome, transaction, now, by);
}

async function recordCheckFailure(db: Database, paymentId: string, now: Date, error: unknown) {
  logger.warn({ paymentId, err: error }, "webpay commit or status failed; the reconciliation will retry");
  // The claim is kept: it lapses after COMMIT_CLAIM_SECONDS, and the reconciliation then asks again.
  await db
    .update(payments)
    .set({ lastCheckedAt: now, lastError: describeError(error).slice(0, 500) })
    .where(eq(payments.id, paymentId));
}

async function currentStatus(db: Pick<Database, "select">, paymentId: string): Promise<PaymentStatus> {
  const [row] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, paymentId));
  return (row?.status ?? "created") as PaymentStatus;
}

/**
 * Writes an attempt's outcome once, under its row lock: an attempt no longer "created" is left as it is. An
 * authorized payment credits its charge in the same transaction; a refused, aborted or expired deposit releases its
 * booking (unless another attempt is still open on the form).
 */
export async function applyOutcome(
  db: Database,
  paymentId: string,
  outcome: PaymentOutcome,
  transaction: WebpayTransaction | null,
  now: Date,
  by: "return" | "reconciliation" | "create",
  error?: string,
): Promise<PaymentStatus> {
  let settled = false;
  const status = await db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
    if (!payment) throw new AppError("NOT_FOUND", NOT_FOUND);
    const move = paymentTransition(
      {
        status: payment.status as PaymentStatus,
        amount: payment.amount,
        refundedAmount: payment.refundedAmount,
      },
      { type: outcome },
    );
    if (!move.ok) return payment.status as PaymentStatus;
    // Webpay answers the amount it charged; one that differs from ours is never credited as ours.
    if (outcome === "authorized" && transaction && transaction.amount !== payment.amount) {
      logger.error(
        { paymentId },
        "webpay authorized an amount that differs from the attempt's; not credited",
      );
      throw new AppError("CONFLICT", "El monto autorizado por Webpay no coincide con el cobro.");
    }
    await tx
      .update(payments)
      .set({
        status: move.status,
        settledAt: now,
        settledBy: by,
        commitClaimedAt: null,
        responseCode: transaction?.responseCode ?? null,
        authorizationCode: transaction?.authorizationCode ?? null,
        paymentTypeCode: transaction?.paymentTypeCode ?? null,
        cardLast4: transaction?.cardLast4 ?? null,
        installments: transaction?.installmentsNumber ?? null,
        transactionDate: transaction?.transactionDate ?? null,
        lastError: error?.slice(0, 500) ?? payment.lastError,
        updatedAt: now,
      })
      .where(eq(payments.id, paymentId));
    const [charge] = await tx.select().from(charges).where(eq(charges.id, payment.chargeId)).for("update");
    if (!charge) throw new Error("payment without its charge");
    if (move.status === "authorized") await credit(tx, charge, { ...payment, status: "authorized" }, now);
    else if (charge.kind === "deposit" && charge.appointmentId) {
      const others = await openAttempt(tx, charge.id, now);
      if (!others) await releaseHeldBooking(tx, charge.appointmentId, now);
    }
    settled = true;
    return move.status;
  });
  // clinica_payments_total, once the outcome is committed (issue 25).
  if (settled) countPaymentSettled(status);
  logger.info({ paymentId, status, by }, "payment attempt settled");
  kickOutboxWorker();
  return status;
}

/**
 * An authorized payment meets its charge. An open charge is paid by it (a deposit also confirms its booking, or books
 * a released slot again if it is still free); a charge that no longer needs it — already paid (two tabs), waived,
 * or a deposit whose slot was lost — gets the money back in full, automatically.
 */
async function credit(tx: Database, charge: ChargeRow, payment: PaymentRow, now: Date) {
  let refundReason: string | null = null;
  if (charge.status !== "open") {
    refundReason = "Pago duplicado: este cobro ya estaba pagado o anulado.";
  } else if (charge.kind === "deposit") {
    const [booking] = charge.appointmentId
      ? await tx
          .select({ status: appointments.status })
          .from(appointments)
          .where(eq(appointments.id, charge.appointmentId))
      : [];
    const planned = authorizedDepositOutcome({
      appointmentStatus: booking?.status ?? null,
      slotStillFree: true,
    });
    const confirmed =
      planned !== "refund" && charge.appointmentId
        ? await confirmPaidBooking(tx, charge.appointmentId)
        : false;
    if (!confirmed) {
      refundReason =
        planned === "refund"
          ? "La cita de este abono ya no estaba pendiente de pago."
          : "El horario de la cita ya no estaba disponible cuando se confirmó el pago.";
      await tx.update(charges).set({ status: "void", updatedAt: now }).where(eq(charges.id, charge.id));
    }
  }
  if (!refundReason) {
    await tx
      .update(charges)
      .set({ status: "paid", paidAt: now, updatedAt: now })
      .where(eq(charges.id, charge.id));
  }
  await notifyPayment(tx, {
    event: "payment_received",
    patientId: payment.patientId,
    paymentId: payment.id,
    amount: payment.amount,
    concept: charge.concept,
  });
  if (refundReason) {
    logger.warn({ paymentId: payment.id }, "authorized payment not needed; refunded in full");
    await requestRefund(tx, {
      paymentId: payment.id,
      amount: payment.amount,
      reason: refundReason,
      requestedBy: null,
    });
  }
}

/**
 * The reconciliation (Webpay sends no webhooks): attempts left open are committed or asked about once their payer
 * is back or their form is over, attempts that never got a token expire, and held bookings whose time is up are
 * released. Safe on several instances at once: each step goes through the same claim and row lock as a return.
 */
export async function reconcilePayments(db: Database, webpay: WebpayClient | null, now = new Date()) {
  const open = await db
    .select()
    .from(payments)
    .where(eq(payments.status, "created"))
    .orderBy(payments.formExpiresAt)
    .limit(50);
  let settled = 0;
  for (const attempt of open) {
    const step = reconciliationStep({
      hasToken: Boolean(attempt.token),
      createdAt: attempt.createdAt,
      returnedAt: attempt.returnedAt,
      formExpiresAt: attempt.formExpiresAt,
      commitClaimedAt: attempt.commitClaimedAt,
      now,
    });
    if (step === "wait") continue;
    // Counted for the staff list ("N verificaciones"): each time the job looked at the attempt with Webpay.
    await db
      .update(payments)
      .set({ checks: sql`${payments.checks} + 1`, lastCheckedAt: now })
      .where(eq(payments.id, attempt.id));
    const status =
      step === "expire"
        ? await applyOutcome(
            db,
            attempt.id,
            "expired",
            null,
            now,
            "reconciliation",
            "Webpay nunca entregó un token.",
          )
        : await settleAttempt(db, attempt.id, webpay, now, "reconciliation");
    if (status !== "created") settled += 1;
  }
  const released = await releaseExpiredHolds(db, now);
  return { settled, released };
}

/** Held bookings whose hold is over and whose attempts can no longer come back paid: their slots are freed. */
export async function releaseExpiredHolds(db: Database, now = new Date()) {
  const held = await db
    .select({ id: appointments.id, holdExpiresAt: appointments.paymentHoldExpiresAt })
    .from(appointments)
    .where(and(eq(appointments.status, "pending_payment"), lt(appointments.paymentHoldExpiresAt, now)))
    .limit(100);
  let released = 0;
  for (const booking of held) {
    if (!booking.holdExpiresAt) continue;
    const [latest] = await db
      .select({ formExpiresAt: payments.formExpiresAt })
      .from(payments)
      .innerJoin(charges, eq(charges.id, payments.chargeId))
      .where(and(eq(charges.appointmentId, booking.id), eq(payments.status, "created")))
      .orderBy(desc(payments.formExpiresAt))
      .limit(1);
    const release = holdReleaseDecision({
      holdExpiresAt: booking.holdExpiresAt,
      openAttemptFormExpiresAt: latest?.formExpiresAt ?? null,
      now,
    });
    if (release && (await releaseHeldBooking(db, booking.id, now))) released += 1;
  }
  return released;
}

/**
 * A payment's money and what has gone back or is going back: what it still holds is amount − refunded − pending
 * (pending refunds count). Select these with the payment; `heldPayment` is the condition for the ones that count.
 */
export const paymentHoldings = {
  amount: payments.amount,
  refunded: payments.refundedAmount,
  pending: sql<number>`coalesce((select sum(${paymentRefunds.amount}) from ${paymentRefunds} where ${paymentRefunds.paymentId} = ${payments.id} and ${paymentRefunds.status} = 'pending'), 0)::int`,
};
export const heldPayment = () => inArray(payments.status, ["authorized", "partially_refunded"]);

/** The deposit charges of an appointment and what was paid on them and not refunded (pending refunds count). */
export async function depositPaidFor(tx: Pick<Database, "select">, appointmentId: string) {
  const rows = await tx
    .select({ paymentId: payments.id, ...paymentHoldings })
    .from(payments)
    .innerJoin(charges, eq(charges.id, payments.chargeId))
    .where(and(eq(charges.appointmentId, appointmentId), eq(charges.kind, "deposit"), heldPayment()));
  return rows.map((row) => ({
    paymentId: row.paymentId,
    available: row.amount - row.refunded - row.pending,
  }));
}
