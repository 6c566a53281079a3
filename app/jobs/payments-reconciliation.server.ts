import { getDb } from "~/db/client.server";
import { reconcilePayments } from "~/features/payments/payment-service.server";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { intervalJob } from "./interval-job.server";

/**
 * How often open Webpay attempts and held bookings are looked at (ADR 036). Webpay sends no webhooks: an attempt the
 * payer left (closed tab, our process died between their return and our commit) is settled by this job within a
 * couple of minutes of its form's deadline, and a hold whose time is up frees its slot.
 */
export const PAYMENT_RECONCILIATION_MS = 30_000;

export async function runPaymentReconciliationOnce(now = new Date()) {
  return reconcilePayments(await getDb(), webpayClient(), now);
}

const reconciliationJob = intervalJob({
  key: "payments-reconciliation",
  everyMs: PAYMENT_RECONCILIATION_MS,
  runAtStart: true,
  whileRunning: "skip",
  failureMessage: "payment reconciliation failed",
  run: () => runPaymentReconciliationOnce(),
});

export function startPaymentReconciliation() {
  reconciliationJob.start();
}

export async function stopPaymentReconciliation(): Promise<void> {
  await reconciliationJob.stop();
}
