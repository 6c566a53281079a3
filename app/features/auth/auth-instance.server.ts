import { passwordResetEmail, verificationEmail } from "~/features/email/email-templates";
import { enqueue } from "~/features/outbox/outbox.server";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import { authInstance, registerAuthMail, type Auth, type AuthMail } from "~/lib/auth/auth.server";

/** Account e-mails go through the outbox like every other outbound message (DESIGN §4). */
const outboxAuthMail: AuthMail = {
  async sendPasswordReset({ db, clinic, user, url, token }) {
    await enqueue(db, {
      kind: "email",
      idempotencyKey: `reset:${user.id}:${token}`,
      payload: { to: user.email, ...passwordResetEmail(clinic, user.name, url) },
    });
    kickOutboxWorker();
  },
  async sendVerification({ db, clinic, user, url, token }) {
    await enqueue(db, {
      kind: "email",
      idempotencyKey: `verify:${user.id}:${token}`,
      payload: { to: user.email, ...verificationEmail(clinic, user.name, url) },
    });
    kickOutboxWorker();
  },
};

/** The Better Auth instance with its e-mails wired: what every caller outside lib uses. */
export function getAuth(): Promise<Auth> {
  registerAuthMail(outboxAuthMail);
  return authInstance();
}
