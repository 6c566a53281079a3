import type { WhatsAppFake } from "~/integrations/whatsapp/whatsapp-fake";
import { startFakeSmtp, type FakeSmtp } from "./fake-smtp";
import { startWhatsAppHarness } from "./whatsapp-harness";

/**
 * Where a patient receives what the clinic sends: the fake WhatsApp provider (their phone) and the fake SMTP server
 * (their mailbox), with the app's WHATSAPP_* and SMTP_URL pointed at them. Open it before anything reads `env()`
 * (it is cached on first use): import the app's modules dynamically after this. Codes and links are read here, as
 * the patient reads them, never from the database.
 */
export interface PatientInbox {
  fake: WhatsAppFake;
  smtp: FakeSmtp;
  /** Runs the outbox worker's real handlers until nothing is due. */
  deliverAll(): Promise<void>;
  /** The newest template `name` the phone `to` (digits with the country code, or any) received. */
  lastTemplate(name: string, to?: string): string[];
  /** The 6-digit code of the newest 'código de acceso' mail to `to`. */
  mailedCode(to: string): string;
  close(): Promise<void>;
}

export async function openPatientInbox(label: string): Promise<PatientInbox> {
  const whatsApp = await startWhatsAppHarness({
    apiKey: `fake-whatsapp-key-${label}`,
    secret: `webhook-secret-${label}-0123456789`,
    sender: "56900000001",
  });
  const { fake } = whatsApp;
  const smtp = await startFakeSmtp();
  process.env.SMTP_URL = `${smtp.url}?ignoreTLS=true`;
  return {
    fake,
    smtp,
    async deliverAll() {
      const [{ getDb }, { deliverDue }, { outboxHandlers }] = await Promise.all([
        import("~/db/client.server"),
        import("~/features/outbox/outbox.server"),
        import("~/jobs/outbox-worker.server"),
      ]);
      const db = await getDb();
      const handlers = outboxHandlers();
      while ((await deliverDue(db, handlers)) > 0) {
        // keep going while there is work
      }
    },
    lastTemplate(name, to) {
      const sent = fake.sent.filter(
        (message) => message.template === name && (to === undefined || message.to === to.replace(/\D/g, "")),
      );
      const placeholders = sent.at(-1)?.placeholders;
      if (!placeholders) throw new Error(`no ${name} template received${to ? ` by ${to}` : ""}`);
      return placeholders;
    },
    mailedCode(to) {
      const mail = smtp.messages
        .filter((item) => item.to.includes(to) && /código de acceso/i.test(item.subject))
        .at(-1);
      const code = mail ? /\b(\d{6})\b/.exec(mail.text)?.[1] : undefined;
      if (!code) throw new Error(`no code mailed to ${to}`);
      return code;
    },
    async close() {
      await whatsApp.close();
      await smtp.close();
      delete process.env.SMTP_URL;
    },
  };
}
