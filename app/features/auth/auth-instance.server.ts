import { passwordResetEmail, verificationEmail } from "~/features/email/email-templates";
import { enqueue } from "~/features/outbox/outbox.server";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import {
  authInstance,
  registerAuthMail,
  type Auth,
  type AuthMail,
  type AuthMailRequest,
} from "~/lib/auth/auth.server";

/** Account e-mails go through the outbox like every other outbound message (DESIGN §4). */
function queued(keyPrefix: string, template: typeof passwordResetEmail) {
  return async ({ db, clinic, user, url, token }: AuthMailRequest) => {
    await enqueue(db, {
      kind: "email",
      idempotencyKey: `${keyPrefix}:${user.id}:${token}`,
      payload: { to: user.email, ...template(clinic, user.name, url) },
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
