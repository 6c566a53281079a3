import type { Transporter } from "nodemailer";
/** What a mail says; the templates that write it live with the feature that sends it. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

export interface OutgoingEmail extends EmailContent {
  to: string;
}

export interface Mailer {
  /** "smtp" when a server accepted the message; "dev-outbox" when no SMTP server is configured. */
  send(email: OutgoingEmail): Promise<"smtp" | "dev-outbox">;
}

/** SMTP through nodemailer when `smtpUrl` is set; otherwise mails stay in the outbox table (the dev outbox). */
export function createMailer({
  smtpUrl,
  from,
  timeoutMs = 10_000,
}: {
  smtpUrl?: string;
  from: string;
  timeoutMs?: number;
}): Mailer {
  if (!smtpUrl) return { send: async () => "dev-outbox" };
  const url = new URL(smtpUrl);
  // nodemailer (~40 modules) loads at the first mail, not at start (ADR 050).
  let transport: Promise<Transporter> | undefined;
  const open = async () =>
    (await import("nodemailer")).default.createTransport({
      host: url.hostname,
      port: Number(url.port || (url.protocol === "smtps:" ? 465 : 587)),
      secure: url.protocol === "smtps:",
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      // A local or test server without TLS must still work; real servers upgrade with STARTTLS when they offer it.
      ignoreTLS: url.searchParams.get("ignoreTLS") === "true",
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  return {
    async send(email) {
      // A failed start is not kept: the next mail tries again.
      transport ??= open().catch((error: unknown) => {
        transport = undefined;
        throw error;
      });
      await (
        await transport
      ).sendMail({
        from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
      });
      return "smtp";
    },
  };
}
