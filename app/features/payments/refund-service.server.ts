import { and, eq, sql } from "drizzle-orm";
import { getDb, type Database } from "~/db/client.server";
import { auditLog, charges, paymentRefunds, payments } from "~/db/schema";
import { paymentTransition, refundDecision, type PaymentStatus } from "~/domain/payments";
import { enqueue, PermanentDeliveryError, type OutboxHandler } from "~/features/outbox/outbox.server";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import { WebpayError, type WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import { notifyPayment } from "./payment-notifications.server";

/**
 * Refunds (ADR 036): asked in the transaction of their cause (a cancellation, an admin, a payment nobody needed) as
 * a `payment_refunds` row and an outbox item; the outbox handler asks Webpay and records the answer. Webpay's refund
 * is not idempotent, so a retry first asks the transaction's status and records a refund Webpay already applied
 * instead of asking for it twice.
 */

export const WEBPAY_REFUND_KIND = "webpay_refund";

/** Pesos already asked for and not yet answered, per payment. */
async function pendingRefunds(tx: Pick<Database, "select">, paymentId: string) {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${paymentRefunds.amount}), 0)::int` })
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.paymentId, paymentId), eq(paymentRefunds.status, "pending")));
  return row?.total ?? 0;
}

/** Asks for a refund of `amount` pesos of an authorized payment; refused (400) over what is left to refund. */
export async function requestRefund(
  tx: Database,
  input: { paymentId: string; amount: number; reason: string; requestedBy: string | null },
): Promise<string> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, input.paymentId)).for("update");
  if (!payment) throw new AppError("NOT_FOUND", "No encontramos ese pago.");
  const decision = refundDecision({
    paid: payment.status === "authorized" || payment.status === "partially_refunded" ? payment.amount : 0,
    refunded: payment.refundedAmount,
    pending: await pendingRefunds(tx, payment.id),
    requested: input.amount,
  });
  if (!decision.allowed) throw new AppError("VALIDATION", decision.reason);
  const [refund] = await tx
    .insert(paymentRefunds)
    .values({
      paymentId: payment.id,
      amount: input.amount,
      reason: input.reason,
      requestedBy: input.requestedBy,
    })
    .returning({ id: paymentRefunds.id });
  if (!refund) throw new Error("insert returned nothing");
  await enqueue(tx, {
    kind: WEBPAY_REFUND_KIND,
    idempotencyKey: `refund:${refund.id}`,
    payload: { refundId: refund.id },
  });
  return refund.id;
}

/** An admin's refund (full or partial, with its reason), audited in the same transaction. */
export async function adminRefund(
  db: Database,
  actor: { id: string; roles: readonly string[]; ip: string },
  input: { paymentId: string; amount: number; reason: string },
) {
  const refundId = await db.transaction(async (tx) => {
    const id = await requestRefund(tx, { ...input, requestedBy: actor.id });
    const [payment] = await tx
      .select({ patientId: payments.patientId, buyOrder: payments.buyOrder })
      .from(payments)
      .where(eq(payments.id, input.paymentId));
    await tx.insert(auditLog).values({
      actorId: actor.id,
      actorRoles: actor.roles.join(","),
      action: "payment.refund_requested",
      targetUserId: payment?.patientId ?? null,
      details: {
        paymentId: input.paymentId,
        buyOrder: payment?.buyOrder,
        amount: input.amount,
        reason: input.reason,
      },
      ip: actor.ip,
    });
    return id;
  });
  kickOutboxWorker();
  return refundId;
}

/**
 * An admin forgives an open late-cancellation fee (reason required, audited); the part of the deposit that had been
 * applied to it goes back to the patient.
 */
export async function waiveFee(
  db: Database,
  actor: { id: string; roles: readonly string[]; ip: string },
  input: { chargeId: string; reason: string },
  depositRefunds: (tx: Database, appointmentId: string, amount: number) => Promise<void>,
  now = new Date(),
) {
  await db.transaction(async (tx) => {
    const [charge] = await tx.select().from(charges).where(eq(charges.id, input.chargeId)).for("update");
    if (!charge) throw new AppError("NOT_FOUND", "No encontramos ese cobro.");
    if (charge.kind !== "late_cancellation") {
      throw new AppError("VALIDATION", "Solo se puede condonar un cargo por cancelación tardía.");
    }
    if (charge.status !== "open" && !(charge.status === "paid" && charge.creditedAmount === charge.amount)) {
      throw new AppError(
        "CONFLICT",
        "Este cargo ya no se puede condonar: ya fue pagado en línea o condonado.",
      );
    }
    await tx
      .update(charges)
      .set({
        status: "waived",
        waivedAt: now,
        waivedBy: actor.id,
        waivedReason: input.reason,
        updatedAt: now,
      })
      .where(eq(charges.id, charge.id));
    if (charge.creditedAmount > 0 && charge.appointmentId) {
      await depositRefunds(tx, charge.appointmentId, charge.creditedAmount);
    }
    await tx.insert(auditLog).values({
      actorId: actor.id,
      actorRoles: actor.roles.join(","),
      action: "payment.fee_waived",
      targetUserId: charge.patientId,
      details: { chargeId: charge.id, amount: charge.amount, reason: input.reason },
      ip: actor.ip,
    });
  });
  kickOutboxWorker();
}

/** Delivers a refund: asks Webpay once (a retry checks first whether it was already applied) and records it. */
export function createWebpayRefundHandler(webpay: () => WebpayClient | null): OutboxHandler {
  return async (payload, delivery) => {
    const refundId = String(payload.refundId ?? "");
    const database = await getDb();
    const [refund] = await database.select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId));
    if (!refund) throw new PermanentDeliveryError("refund row missing");
    if (refund.status !== "pending") return "already-recorded";
    const [payment] = await database.select().from(payments).where(eq(payments.id, refund.paymentId));
    if (!payment?.token) throw new PermanentDeliveryError("payment without a Webpay token");
    const client = webpay();
    if (!client) throw new Error("Webpay is not configured; the refund waits");
    let type: "REVERSED" | "NULLIFIED" = "NULLIFIED";
    let authorizationCode: string | null = null;
    const applied = delivery.attempts > 1 ? await alreadyApplied(client, payment, refund.amount) : false;
    if (!applied) {
      try {
        const answer = await client.refund(payment.token, refund.amount);
        type = answer.type;
        authorizationCode = answer.authorizationCode;
      } catch (error) {
        if (error instanceof WebpayError && error.kind === "rejected") {
          await database
            .update(paymentRefunds)
            .set({ status: "failed", lastError: error.message.slice(0, 500), updatedAt: new Date() })
            .where(eq(paymentRefunds.id, refund.id));
          throw new PermanentDeliveryError(`Webpay refused the refund: ${error.message}`, { cause: error });
        }
        throw error;
      }
    }
    await recordRefund(database, refund.id, type, authorizationCode);
    return applied ? "webpay-already-applied" : `webpay-${type.toLowerCase()}`;
  };
}

/**
 * Whether Webpay already holds this refund (our process died after asking, before recording): a reversal is whole,
 * and a nullification leaves Webpay's balance at or below what this refund would leave.
 */
async function alreadyApplied(
  client: WebpayClient,
  payment: typeof payments.$inferSelect,
  amount: number,
): Promise<boolean> {
  const status = await client.status(payment.token ?? "");
  if (status.status === "REVERSED") return true;
  if (status.balance === null) return false;
  return status.balance <= payment.amount - payment.refundedAmount - amount;
}

async function recordRefund(
  db: Database,
  refundId: string,
  type: "REVERSED" | "NULLIFIED",
  authorizationCode: string | null,
) {
  const now = new Date();
  await db.transaction(async (tx) => {
    const [refund] = await tx
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.id, refundId))
      .for("update");
    if (!refund || refund.status !== "pending") return;
    const [payment] = await tx.select().from(payments).where(eq(payments.id, refund.paymentId)).for("update");
    if (!payment) return;
    const move = paymentTransition(
      {
        status: payment.status as PaymentStatus,
        amount: payment.amount,
        refundedAmount: payment.refundedAmount,
      },
      { type: "refund", amount: refund.amount },
    );
    if (!move.ok) {
      logger.error({ refundId }, "refund recorded by Webpay but refused by the state machine");
      return;
    }
    await tx
      .update(payments)
      .set({ status: move.status, refundedAmount: move.refundedAmount, updatedAt: now })
      .where(eq(payments.id, payment.id));
    await tx
      .update(paymentRefunds)
      .set({ status: "done", type, authorizationCode, doneAt: now, updatedAt: now })
      .where(eq(paymentRefunds.id, refund.id));
    const [charge] = await tx
      .select({ concept: charges.concept })
      .from(charges)
      .where(eq(charges.id, payment.chargeId));
    await notifyPayment(tx, {
      event: "refund_issued",
      patientId: payment.patientId,
      paymentId: payment.id,
      refundId: refund.id,
      amount: refund.amount,
      concept: charge?.concept ?? "",
    });
  });
  logger.info({ refundId, type }, "refund recorded");
}
