import { getDb } from "~/db/client.server";
import {
  createDentalinkWriteThroughHandler,
  DENTALINK_APPOINTMENT_KIND,
} from "~/features/dentalink-sync/dentalink-writethrough.server";
import {
  createWhatsAppOutboxHandler,
  WHATSAPP_OUTBOX_KIND,
} from "~/features/messaging/whatsapp-outbox.server";
import { createMailer, type OutgoingEmail } from "~/integrations/smtp/mailer.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { deliverDue, type OutboxHandler } from "./outbox.server";

const POLL_MS = 2_000;

export function outboxHandlers(): Record<string, OutboxHandler> {
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
      if (via === "dev-outbox")
        logger.info({ to: email.to, subject: email.subject }, "e-mail kept in the dev outbox");
      return via;
    },
    [WHATSAPP_OUTBOX_KIND]: createWhatsAppOutboxHandler(),
    [DENTALINK_APPOINTMENT_KIND]: createDentalinkWriteThroughHandler(),
  };
}

interface WorkerState {
  timer?: NodeJS.Timeout;
  running: boolean;
  again: boolean;
  stopping: boolean;
  /** The delivery run in progress, so that shutdown can wait for it before the database closes. */
  run?: Promise<void>;
}

const state = globalThis as typeof globalThis & { __clinicaOutbox?: WorkerState };

function workerState(): WorkerState {
  return (state.__clinicaOutbox ??= { running: false, again: false, stopping: false });
}

function runOnce(): Promise<void> {
  const worker = workerState();
  if (worker.running) {
    worker.again = true;
    return worker.run ?? Promise.resolve();
  }
  worker.running = true;
  worker.run = (async () => {
    try {
      const db = await getDb();
      const handlers = outboxHandlers();
      do {
        worker.again = false;
        // Between batches, not mid-batch: a claimed row is either delivered and recorded, or left to its lease.
        while (!worker.stopping && (await deliverDue(db, handlers)) > 0) {
          // keep going while there is work
        }
      } while (worker.again && !worker.stopping);
    } catch (error) {
      logger.error({ err: error }, "outbox worker failed");
    } finally {
      worker.running = false;
      worker.run = undefined;
    }
  })();
  return worker.run;
}

/** Polls the outbox in this process (every instance may run one; rows are claimed with SKIP LOCKED). */
export function startOutboxWorker() {
  const worker = workerState();
  if (worker.timer) return;
  worker.stopping = false;
  worker.timer = setInterval(() => void runOnce(), POLL_MS);
  worker.timer.unref();
}

/**
 * Stops polling and waits (at most `timeoutMs`) for the delivery run in progress, so that it can record its
 * outcomes before the database closes. Rows of a run cut short stay claimed until their lease ends and are retried
 * then (at-least-once delivery).
 */
export async function stopOutboxWorker(timeoutMs = 5_000): Promise<void> {
  const worker = state.__clinicaOutbox;
  if (!worker) return;
  worker.stopping = true;
  if (worker.timer) clearInterval(worker.timer);
  worker.timer = undefined;
  if (!worker.run) return;
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    worker.run.then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (!finished)
    logger.warn({ timeoutMs }, "outbox delivery still running at shutdown; its rows will be retried");
}

/** Deliver soon after something was enqueued (the caller has already committed). No-op when the worker is off. */
export function kickOutboxWorker() {
  if (state.__clinicaOutbox?.timer) setImmediate(() => void runOnce());
}
