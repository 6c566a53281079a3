import { getDb } from "~/db/client.server";
import {
  createDentalinkWriteThroughHandler,
  DENTALINK_APPOINTMENT_KIND,
} from "~/features/dentalink-sync/dentalink-writethrough.server";
import {
  createWhatsAppOutboxHandler,
  WHATSAPP_OUTBOX_KIND,
} from "~/features/messaging/whatsapp-outbox.server";
import { deliverDue, type OutboxHandler } from "~/features/outbox/outbox.server";
import { createWebpayRefundHandler, WEBPAY_REFUND_KIND } from "~/features/payments/refund-service.server";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { setOutboxKick } from "~/features/outbox/outbox-worker.server";
import { createMailer, type OutgoingEmail } from "~/integrations/smtp/mailer.server";
import { env } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { declareOutboxKinds } from "~/lib/metrics.server";
import { intervalJob } from "./interval-job.server";

const POLL_MS = 2_000;

/** The kinds of outbox row there are (their backlog gauges read 0 from the first scrape; issue 25). */
export const OUTBOX_KINDS = [
  "email",
  WHATSAPP_OUTBOX_KIND,
  DENTALINK_APPOINTMENT_KIND,
  WEBPAY_REFUND_KIND,
] as const;

/** How each kind of outbox row is delivered: e-mail, WhatsApp, the Dentalink write-through, Webpay refunds. */
export function outboxHandlers(): Record<(typeof OUTBOX_KINDS)[number], OutboxHandler> {
  const current = env();
  const mailer = createMailer({ smtpUrl: current.SMTP_URL, from: current.MAIL_FROM });
  return {
    // An e-mail's secret (a code, a single-use link) is its text and html, sealed (`enqueueSecretEmail`).
    email: async (payload, { secret }) => {
      const email = {
        ...payload,
        ...(secret as Partial<OutgoingEmail> | undefined),
      } as unknown as OutgoingEmail;
      const via = await mailer.send(email);
      // Never the address (personal data stays out of the logs, issue 25): /dev/correos shows whom it is for.
      if (via === "dev-outbox") logger.info({ subject: email.subject }, "e-mail kept in the dev outbox");
      return via;
    },
    [WHATSAPP_OUTBOX_KIND]: createWhatsAppOutboxHandler(),
    [DENTALINK_APPOINTMENT_KIND]: createDentalinkWriteThroughHandler(),
    [WEBPAY_REFUND_KIND]: createWebpayRefundHandler(webpayClient),
  };
}

/**
 * Polls the outbox in this process (every instance may run one; rows are claimed with SKIP LOCKED). A kick while a
 * run is in progress makes that run go round once more, so what was just enqueued is not left to the next poll.
 */
const outboxWorker = intervalJob({
  key: "outbox",
  everyMs: POLL_MS,
  runAtStart: false,
  whileRunning: "again",
  failureMessage: "outbox worker failed",
  run: async (job) => {
    const db = await getDb();
    const handlers = outboxHandlers();
    // Between batches, not mid-batch: a claimed row is either delivered and recorded, or left to its lease.
    while (!job.stopping && (await deliverDue(db, handlers)) > 0) {
      // keep going while there is work
    }
  },
});

export function startOutboxWorker() {
  declareOutboxKinds(OUTBOX_KINDS);
  outboxWorker.start();
  setOutboxKick(() => outboxWorker.runSoon());
}

/**
 * Stops polling and waits (at most `timeoutMs`) for the delivery run in progress, so that it can record its
 * outcomes before the database closes. Rows of a run cut short stay claimed until their lease ends and are retried
 * then (at-least-once delivery).
 */
export async function stopOutboxWorker(timeoutMs = 5_000): Promise<void> {
  setOutboxKick(undefined);
  const finished = await outboxWorker.stop(timeoutMs);
  if (!finished)
    logger.warn({ timeoutMs }, "outbox delivery still running at shutdown; its rows will be retried");
}
