import { getDb } from "~/db/client.server";
import { createMailer, type OutgoingEmail } from "~/integrations/smtp/mailer.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { deliverDue, type OutboxHandler } from "./outbox.server";

const POLL_MS = 2_000;

export function outboxHandlers(): Record<string, OutboxHandler> {
  const current = env();
  const mailer = createMailer({ smtpUrl: current.SMTP_URL, from: current.MAIL_FROM });
  return {
    email: async (payload) => {
      const email = payload as unknown as OutgoingEmail;
      const via = await mailer.send(email);
      if (via === "dev-outbox")
        logger.info({ to: email.to, subject: email.subject }, "e-mail kept in the dev outbox");
      return via;
    },
  };
}

const state = globalThis as typeof globalThis & {
  __clinicaOutbox?: { timer?: NodeJS.Timeout; running: boolean; again: boolean };
};

async function runOnce() {
  const worker = (state.__clinicaOutbox ??= { running: false, again: false });
  if (worker.running) {
    worker.again = true;
    return;
  }
  worker.running = true;
  try {
    const db = await getDb();
    const handlers = outboxHandlers();
    do {
      worker.again = false;
      while ((await deliverDue(db, handlers)) > 0) {
        // keep going while there is work
      }
    } while (worker.again);
  } catch (error) {
    logger.error({ err: error }, "outbox worker failed");
  } finally {
    worker.running = false;
  }
}

/** Polls the outbox in this process (every instance may run one; rows are claimed with SKIP LOCKED). */
export function startOutboxWorker() {
  const worker = (state.__clinicaOutbox ??= { running: false, again: false });
  if (worker.timer) return;
  worker.timer = setInterval(() => void runOnce(), POLL_MS);
  worker.timer.unref();
}

export function stopOutboxWorker() {
  const worker = state.__clinicaOutbox;
  if (worker?.timer) clearInterval(worker.timer);
  if (worker) worker.timer = undefined;
}

/** Deliver soon after something was enqueued (the caller has already committed). No-op when the worker is off. */
export function kickOutboxWorker() {
  if (state.__clinicaOutbox?.timer) setImmediate(() => void runOnce());
}
