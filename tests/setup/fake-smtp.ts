import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** Decoded Subject header. */
  subject: string;
  /** Decoded text/plain body ("" if none). */
  text: string;
  /** Decoded text/html body ("" if none). */
  html: string;
  /** The message exactly as received (CRLF line endings). */
  raw: string;
}

export interface FakeSmtp {
  port: number;
  /** smtp://127.0.0.1:<port> */
  url: string;
  messages: ReceivedMail[];
  waitForMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Subject, text/plain and text/html of a raw RFC 5322 message, decoded by mailparser ("" for a missing part). */
export async function parseMail(
  raw: Buffer | string,
): Promise<Pick<ReceivedMail, "subject" | "text" | "html">> {
  // Only what the message carries: no text derived from the HTML, no HTML derived from the text, cid: links kept.
  const parsed = await simpleParser(raw, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    keepCidLinks: true,
  });
  return {
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : "",
  };
}

interface Waiter {
  to: string;
  resolve(mail: ReceivedMail): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export async function startFakeSmtp(options: { port?: number } = {}): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<Waiter>();
  const addressedTo = (mail: ReceivedMail, to: string) =>
    mail.to.some((address) => address.toLowerCase() === to.trim().toLowerCase());

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const bytes = Buffer.concat(chunks);
        parseMail(bytes).then(
          (parsed) => {
            const mailFrom = session.envelope.mailFrom;
            const mail: ReceivedMail = {
              from: mailFrom ? mailFrom.address : "",
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              ...parsed,
              raw: bytes.toString("utf8"),
            };
            messages.push(mail);
            for (const waiter of waiters) {
              if (!addressedTo(mail, waiter.to)) continue;
              waiters.delete(waiter);
              clearTimeout(waiter.timer);
              waiter.resolve(mail);
            }
            // Accepted only once stored, so a sender that awaited sendMail finds the mail in `messages`.
            callback();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // smtp-server logs socket errors to "error"; keep an unhandled one from crashing the test process.
  server.on("error", (error) => console.error("fake-smtp error", error));

  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail(to, timeoutMs = 5000) {
      const existing = messages.find((mail) => addressedTo(mail, to));
      if (existing) return Promise.resolve(existing);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter: Waiter = {
          to,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            const seen = messages.map((mail) => `${mail.to.join(", ")}: "${mail.subject}"`).join("; ");
            reject(
              new Error(
                `fake-smtp: no mail to ${to} within ${timeoutMs} ms (received ${messages.length}${seen ? `: ${seen}` : ""})`,
              ),
            );
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },
    async close() {
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error(`fake-smtp: closed while waiting for mail to ${waiter.to}`));
      }
      waiters.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
