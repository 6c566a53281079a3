import type { AddressInfo } from "node:net";
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

interface MimePart {
  headers: Map<string, string>;
  body: string;
}

function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  const label = (charset ?? "utf-8").trim().toLowerCase();
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

function decodeQuotedPrintableBytes(input: string): Buffer {
  const bytes: number[] = [];
  const text = input.replace(/=\r?\n/g, ""); // soft line breaks
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    const hex = text.slice(i + 1, i + 3);
    if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      // Bodies are read as latin1 (one char per byte); anything wider is kept as UTF-8.
      const code = char?.charCodeAt(0) ?? 0;
      if (code <= 0xff) bytes.push(code);
      else bytes.push(...Buffer.from(char ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded-words (=?charset?B|Q?...?=), adjacent words joined without the whitespace between them. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?[^?]+\?[BbQq]\?[^?]*\?=)/g, "$1")
    .replace(
      /=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=/g,
      (_all, charset: string, encoding: string, data: string) => {
        const bytes =
          encoding.toUpperCase() === "B"
            ? Buffer.from(data, "base64")
            : decodeQuotedPrintableBytes(data.replace(/_/g, " "));
        return decodeCharset(bytes, charset);
      },
    );
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = block.replace(/\r?\n(?=[ \t])/g, "");
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

function splitPart(raw: string): MimePart {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { headers: parseHeaders(raw), body: "" };
  return {
    headers: parseHeaders(raw.slice(0, match.index)),
    body: raw.slice(match.index + match[0].length),
  };
}

function headerParam(header: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(header);
  return match?.[1] ?? match?.[2];
}

function decodeBody(part: MimePart): string {
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").trim().toLowerCase();
  const charset = headerParam(part.headers.get("content-type") ?? "", "charset");
  let bytes: Buffer;
  if (encoding === "quoted-printable") bytes = decodeQuotedPrintableBytes(part.body);
  else if (encoding === "base64") bytes = Buffer.from(part.body.replace(/\s+/g, ""), "base64");
  // 7bit/8bit/binary: the raw message was read as latin1, so each char is one original byte.
  else bytes = Buffer.from(part.body, "latin1");
  return decodeCharset(bytes, charset);
}

function collectBodies(part: MimePart, out: { text?: string; html?: string }): void {
  const contentType = part.headers.get("content-type") ?? "text/plain";
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  const disposition = (part.headers.get("content-disposition") ?? "").toLowerCase();
  if (mediaType.startsWith("multipart/")) {
    const boundary = headerParam(contentType, "boundary");
    if (!boundary) return;
    const delimiter = `--${boundary}`;
    const sections = part.body.split(new RegExp(`\\r?\\n?${escapeRegExp(delimiter)}(?:--)?[ \\t]*\\r?\\n?`));
    // sections[0] is the preamble; after a closing delimiter the last one is the epilogue.
    const closed = part.body.includes(`${delimiter}--`);
    for (const section of sections.slice(1, closed ? -1 : undefined)) collectBodies(splitPart(section), out);
    return;
  }
  if (disposition.startsWith("attachment")) return;
  if (mediaType === "text/plain" && out.text === undefined) out.text = decodeBody(part);
  else if (mediaType === "text/html" && out.html === undefined) out.html = decodeBody(part);
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Parses the subject and the text/plain + text/html bodies out of a raw RFC 5322 message. */
export function parseMail(raw: string): Pick<ReceivedMail, "subject" | "text" | "html"> {
  const root = splitPart(raw);
  const bodies: { text?: string; html?: string } = {};
  collectBodies(root, bodies);
  // Subject headers may carry raw UTF-8 (SMTPUTF8); the raw string is latin1, so re-decode first.
  const subject = decodeEncodedWords(
    Buffer.from(root.headers.get("subject") ?? "", "latin1").toString("utf8"),
  );
  return { subject, text: bodies.text ?? "", html: bodies.html ?? "" };
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
        try {
          // latin1 keeps a 1:1 byte mapping; parts are re-decoded with their own charset.
          const bytes = Buffer.concat(chunks);
          const raw = bytes.toString("latin1");
          const mailFrom = session.envelope.mailFrom;
          const mail: ReceivedMail = {
            from: mailFrom ? mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            ...parseMail(raw),
            raw: bytes.toString("utf8"),
          };
          messages.push(mail);
          for (const waiter of waiters) {
            if (!addressedTo(mail, waiter.to)) continue;
            waiters.delete(waiter);
            clearTimeout(waiter.timer);
            waiter.resolve(mail);
          }
          callback();
        } catch (error) {
          callback(error instanceof Error ? error : new Error(String(error)));
        }
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
