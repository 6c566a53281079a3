import { randomUUID } from "node:crypto";
import { enqueueSecretEmail } from "~/features/email/email-outbox.server";
import { passwordResetEmail, verificationEmail } from "~/features/email/email-templates";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import {
  authInstance,
  registerAuthMail,
  type Auth,
  type AuthMail,
  type AuthMailRequest,
} from "~/lib/auth/auth.server";

/**
 * Account e-mails go through the outbox, so they leave only after the change commits. Their link is a single-use
 * or signed token: the body is sealed and leaves the row once sent, and the key holds no token (ADR 029).
 */
function queued(keyPrefix: string, template: typeof passwordResetEmail) {
  return async ({ db, clinic, user, url }: AuthMailRequest) => {
    await enqueueSecretEmail(db, {
      idempotencyKey: `${keyPrefix}:${user.id}:${randomUUID()}`,
      to: user.email,
      content: template(clinic, user.name, url),
    });
    kickOutboxWorker();
  };
}

const outboxAuthMail: AuthMail = {
  sendPasswordReset: queued("reset", passwordResetEmail),
  sendVerification: queued("verify", verificationEmail),
};

/** The Better Auth instance with its e-mails wired: what every caller outside lib uses. */
export function getAuth(): Promise<Auth> {
  registerAuthMail(outboxAuthMail);
  return authInstance();
}
