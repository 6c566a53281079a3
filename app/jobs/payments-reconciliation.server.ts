import { getDb } from "~/db/client.server";
import { reconcilePayments } from "~/features/payments/payment-service.server";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { env } from "~/lib/base/env.server";
import { intervalJob, type IntervalJob } from "./interval-job.server";

/*
 * How often open Webpay attempts and held bookings are looked at (ADR 036): every PAYMENT_RECONCILIATION_MS, 15 s
 * by default. Webpay sends no webhooks: an attempt the payer left (closed tab, our process died between their
 * return and our commit) is settled by this job within a couple of minutes of its form's deadline, and a hold whose
 * time is up frees its slot. Only the interval is configurable (scripts/crash-test-payments.mjs shortens it); the
 * deadlines it applies are the domain's.
 */

export async function runPaymentReconciliationOnce(now = new Date()) {
  return reconcilePayments(await getDb(), webpayClient(), now);
}

let job: IntervalJob | undefined;

/** Built on first use, so the interval is read from the environment at startup, not at import. */
function reconciliationJob(): IntervalJob {
  job ??= intervalJob({
    key: "payments-reconciliation",
    everyMs: env().PAYMENT_RECONCILIATION_MS,
    runAtStart: true,
    whileRunning: "skip",
    failureMessage: "payment reconciliation failed",
    run: () => runPaymentReconciliationOnce(),
  });
  return job;
}

export function startPaymentReconciliation() {
  reconciliationJob().start();
}

export async function stopPaymentReconciliation(): Promise<void> {
  await reconciliationJob().stop();
}
