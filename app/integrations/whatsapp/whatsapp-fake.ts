import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  WHATSAPP_TEMPLATE_PATH,
  WHATSAPP_TEXT_MAX_LENGTH,
  WHATSAPP_TEXT_PATH,
  WHATSAPP_WEBHOOK_SECRET_HEADER,
  formatInfobipDate,
} from "./whatsapp-schemas";

/**
 * A fake Infobip WhatsApp provider on 127.0.0.1 for integration tests, end-to-end tests and offline development.
 * It honours the contract the client relies on (Infobip's API docs): `Authorization: App <key>` or 401 with the
 * vendor's error body; 400 with `validationErrors` for a missing field; the single-message answer for text and
 * the bulk answer for templates; idempotency on `messageId`; delivery and seen reports posted back afterwards.
 * Failures (401/400/429/5xx, a hang) and latency are injected per test. Node built-ins only, so
 * `tests/setup/run-whatsapp-fake.mjs` runs it with Node's own TypeScript support.
 *
 * Control routes under `/__fake/` (no key; the fake only listens on loopback) let another process (Playwright)
 * read what was sent and inject failures: `GET /__fake/sent`, `POST /__fake/fail {times,status,body?,retryAfter?,endpoint?,to?}`,
 * `POST /__fake/latency {ms}`, `POST /__fake/inbound {from,text,contactName?}`, `POST /__fake/reset`.
 */

export type FakeEndpoint = "text" | "template";

export interface FakeSentMessage {
  endpoint: FakeEndpoint;
  from: string;
  to: string;
  messageId: string;
  bulkId?: string;
  text?: string;
  template?: string;
  language?: string;
  placeholders?: string[];
  buttons?: unknown[];
  callbackData?: string;
  notifyUrl?: string;
  at: Date;
}

export interface FakeRequestLog {
  method: string;
  path: string;
  /** The answer's status, or "hang" for an injected timeout. */
  status: number | "hang";
  authorization: string | undefined;
  messageIds: string[];
  at: Date;
}

export interface FakeReportLog {
  kind: "delivery" | "seen" | "inbound";
  url: string;
  messageId: string;
  /** The receiver's status, or "error" when it could not be reached. */
  status: number | "error";
}

/**
 * An injected failure for the next `times` requests (to `endpoint` only, when given). `status: "timeout"` never
 * answers (the client's timeout fires); `"accept-then-timeout"` accepts the message first, as when the answer
 * is lost on the way back, so a retry with the same messageId must not send it twice.
 */
export interface FakeFailure {
  status: number | "timeout" | "accept-then-timeout";
  times?: number;
  body?: unknown;
  /** Sent as the `Retry-After` header (seconds or an HTTP date). */
  retryAfter?: string | number;
  endpoint?: FakeEndpoint;
  /** Only requests to this number (digits), so a test's failure is not taken by another test's message. */
  to?: string;
}

export interface WhatsAppFakeOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  apiKey: string;
  latencyMs?: number;
  /** Delivery and seen reports go here (a message's own `notifyUrl` wins), with the secret header. */
  reportsUrl?: string;
  reportsSecret?: string;
  /** Delay between accepting a message and its delivery report; the seen report follows after as long again. */
  reportDelayMs?: number;
  /** Inbound messages made with `simulateInbound` go here, with the secret header. */
  inboundUrl?: string;
}

export interface WhatsAppFake {
  url: string;
  port: number;
  /** Every accepted message, once (a repeated messageId is not added again). */
  sent: FakeSentMessage[];
  /** Every request to the API endpoints, failed ones included (counts retries). */
  requests: FakeRequestLog[];
  /** Reports and inbound messages posted to the app, with the answer they got. */
  reports: FakeReportLog[];
  failNext(times: number, status: FakeFailure["status"], body?: unknown): void;
  failWith(failure: FakeFailure): void;
  setLatency(ms: number): void;
  /** Messages to this number are accepted, then reported UNDELIVERABLE (no seen report). */
  markUndeliverable(to: string): void;
  /** Posts an inbound WhatsApp message (a patient writing to the clinic) to `inboundUrl`. */
  simulateInbound(input: {
    from: string;
    text: string;
    contactName?: string;
    to?: string;
  }): Promise<FakeReportLog>;
  /** Resolves when no report is scheduled or in flight. */
  idle(): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;
const SENDER_FOR_INBOUND = "56900000000";

function serviceException(messageId: string, text: string, validationErrors?: Record<string, string[]>) {
  return {
    requestError: {
      serviceException: { messageId, text, ...(validationErrors ? { validationErrors } : {}) },
    },
  };
}

/** The vendor's bodies for the statuses a test injects (fixtures of Infobip's own SDK tests). */
export function defaultErrorBody(status: number): unknown {
  if (status === 401) return serviceException("UNAUTHORIZED", "Invalid login details");
  if (status === 400) {
    return serviceException("BAD_REQUEST", "Bad request", { "content.text": ["must not be blank"] });
  }
  if (status === 403) return serviceException("FORBIDDEN", "Forbidden");
  if (status === 404) return serviceException("NOT_FOUND", "Not found");
  if (status === 429) return serviceException("TOO_MANY_REQUESTS", "Too many requests");
  if (status >= 500)
    return serviceException("GENERAL_ERROR", "Something went wrong. Please contact support.");
  return serviceException("BAD_REQUEST", "Bad request");
}

const pendingStatus = {
  groupId: 1,
  groupName: "PENDING",
  id: 7,
  name: "PENDING_ENROUTE",
  description: "Message sent to next instance",
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonBlank(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

function optionalString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Field checks as the API reports them: path → messages. */
function validateText(body: Json): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!nonBlank(body.from)) errors.from = ["must not be blank"];
  if (!nonBlank(body.to)) errors.to = ["must not be blank"];
  const content = body.content;
  if (!isObject(content)) errors.content = ["must not be null"];
  else if (!nonBlank(content.text)) errors["content.text"] = ["must not be blank"];
  else if (content.text.length > WHATSAPP_TEXT_MAX_LENGTH) {
    errors["content.text"] = [`size must be between 1 and ${WHATSAPP_TEXT_MAX_LENGTH}`];
  }
  return errors;
}

function validateTemplate(body: Json): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    errors.messages = ["must not be empty"];
    return errors;
  }
  body.messages.forEach((message: unknown, index) => {
    const at = `messages[${index}]`;
    if (!isObject(message)) {
      errors[at] = ["must not be null"];
      return;
    }
    if (!nonBlank(message.from)) errors[`${at}.from`] = ["must not be blank"];
    if (!nonBlank(message.to)) errors[`${at}.to`] = ["must not be blank"];
    const content = message.content;
    if (!isObject(content)) {
      errors[`${at}.content`] = ["must not be null"];
      return;
    }
    if (!nonBlank(content.templateName)) errors[`${at}.content.templateName`] = ["must not be blank"];
    if (!nonBlank(content.language)) errors[`${at}.content.language`] = ["must not be blank"];
    const data = content.templateData;
    const placeholders = isObject(data) && isObject(data.body) ? data.body.placeholders : undefined;
    if (!Array.isArray(placeholders) || !placeholders.every((item) => typeof item === "string")) {
      errors[`${at}.content.templateData.body.placeholders`] = ["must not be null"];
    }
  });
  return errors;
}

function readBody(request: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function send(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json;charset=UTF-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export async function startWhatsAppFake(options: WhatsAppFakeOptions): Promise<WhatsAppFake> {
  const initialLatency = options.latencyMs ?? 0;
  const reportDelayMs = options.reportDelayMs ?? 20;
  let latencyMs = initialLatency;
  const sent: FakeSentMessage[] = [];
  const requests: FakeRequestLog[] = [];
  const reports: FakeReportLog[] = [];
  const failures: Array<FakeFailure & { times: number }> = [];
  /** messageId → the answer given the first time (idempotency). */
  const accepted = new Map<string, { to: string; messageId: string; bulkId?: string }>();
  const undeliverable = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<unknown>>();
  /** Bumped by reset(): a report already on its way then schedules nothing more. */
  let generation = 0;

  function schedule(delayMs: number, task: () => Promise<unknown>) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const running = task().finally(() => inFlight.delete(running));
      inFlight.add(running);
    }, delayMs);
    timers.add(timer);
  }

  async function post(kind: FakeReportLog["kind"], url: string, messageId: string, body: unknown) {
    const startedIn = generation;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.reportsSecret) headers[WHATSAPP_WEBHOOK_SECRET_HEADER] = options.reportsSecret;
    let entry: FakeReportLog;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5_000),
      });
      await response.arrayBuffer();
      entry = { kind, url, messageId, status: response.status };
    } catch {
      entry = { kind, url, messageId, status: "error" };
    }
    if (startedIn === generation) reports.push(entry);
    return entry;
  }

  function scheduleReports(message: FakeSentMessage) {
    const url = message.notifyUrl ?? options.reportsUrl;
    if (!url) return;
    const failed = undeliverable.has(message.to);
    const scheduledIn = generation;
    schedule(reportDelayMs, async () => {
      const doneAt = new Date();
      await post("delivery", url, message.messageId, {
        results: [
          {
            ...(message.bulkId ? { bulkId: message.bulkId } : {}),
            messageId: message.messageId,
            to: message.to,
            sentAt: formatInfobipDate(message.at),
            doneAt: formatInfobipDate(doneAt),
            messageCount: 1,
            price: { pricePerMessage: 0, currency: "USD" },
            status: failed
              ? {
                  groupId: 2,
                  groupName: "UNDELIVERABLE",
                  id: 9,
                  name: "UNDELIVERABLE_NOT_DELIVERED",
                  description: "Message sent not delivered",
                }
              : {
                  groupId: 3,
                  groupName: "DELIVERED",
                  id: 5,
                  name: "DELIVERED_TO_HANDSET",
                  description: "Message delivered to handset",
                },
            error: failed
              ? {
                  groupId: 1,
                  groupName: "HANDSET_ERRORS",
                  id: 1,
                  name: "EC_UNKNOWN_SUBSCRIBER",
                  description: "Unknown subscriber",
                  permanent: true,
                }
              : {
                  groupId: 0,
                  groupName: "OK",
                  id: 0,
                  name: "NO_ERROR",
                  description: "No Error",
                  permanent: false,
                },
            ...(message.callbackData !== undefined ? { callbackData: message.callbackData } : {}),
          },
        ],
      });
      if (failed || scheduledIn !== generation) return;
      schedule(reportDelayMs, () =>
        post("seen", url, message.messageId, {
          results: [
            {
              messageId: message.messageId,
              from: message.from,
              to: message.to,
              sentAt: formatInfobipDate(message.at),
              seenAt: formatInfobipDate(new Date()),
            },
          ],
        }),
      );
    });
  }

  /** Records a message the first time its id is seen; the stored answer otherwise. */
  function accept(endpoint: FakeEndpoint, message: Json, bulkId?: string) {
    const messageId = nonBlank(message.messageId) ? message.messageId : randomUUID();
    const known = accepted.get(messageId);
    if (known) return known;
    const content = message.content as Json;
    const templateData = isObject(content.templateData) ? content.templateData : undefined;
    const record: FakeSentMessage = {
      endpoint,
      from: String(message.from),
      to: String(message.to),
      messageId,
      ...(bulkId ? { bulkId } : {}),
      ...(endpoint === "text"
        ? { text: String(content.text) }
        : {
            template: String(content.templateName),
            language: String(content.language),
            placeholders: isObject(templateData?.body) ? (templateData.body.placeholders as string[]) : [],
            ...(Array.isArray(templateData?.buttons) ? { buttons: templateData.buttons as unknown[] } : {}),
          }),
      callbackData: optionalString(message.callbackData),
      notifyUrl: optionalString(message.notifyUrl),
      at: new Date(),
    };
    sent.push(record);
    const answer = { to: record.to, messageId, ...(bulkId ? { bulkId } : {}) };
    accepted.set(messageId, answer);
    scheduleReports(record);
    return answer;
  }

  function takeFailure(endpoint: FakeEndpoint | undefined, to: unknown) {
    const index = failures.findIndex(
      (failure) => (!failure.endpoint || failure.endpoint === endpoint) && (!failure.to || failure.to === to),
    );
    if (index === -1) return undefined;
    const failure = failures[index];
    if (!failure) return undefined;
    failure.times -= 1;
    if (failure.times <= 0) failures.splice(index, 1);
    return failure;
  }

  function failWith(failure: FakeFailure) {
    failures.push({ ...failure, times: failure.times ?? 1 });
  }

  async function control(path: string, body: unknown, response: http.ServerResponse) {
    const input = isObject(body) ? body : {};
    if (path === "/__fake/sent") return send(response, 200, { sent, requests: requests.length });
    if (path === "/__fake/reset") {
      reset();
      return send(response, 200, { ok: true });
    }
    if (path === "/__fake/latency") {
      latencyMs = Number(input.ms) || 0;
      return send(response, 200, { ok: true });
    }
    if (path === "/__fake/fail") {
      const status = input.status;
      if (typeof status !== "number" && status !== "timeout" && status !== "accept-then-timeout") {
        return send(response, 400, { error: "status: a number, 'timeout' or 'accept-then-timeout'" });
      }
      failWith({
        status,
        times: Number(input.times) || 1,
        body: input.body,
        retryAfter: typeof input.retryAfter === "number" ? input.retryAfter : undefined,
        endpoint: input.endpoint === "text" || input.endpoint === "template" ? input.endpoint : undefined,
        to: typeof input.to === "string" ? input.to : undefined,
      });
      return send(response, 200, { ok: true });
    }
    if (path === "/__fake/inbound") {
      if (!nonBlank(input.from) || !nonBlank(input.text))
        return send(response, 400, { error: "from and text" });
      const entry = await simulateInbound({
        from: input.from,
        text: input.text,
        contactName: optionalString(input.contactName),
      });
      return send(response, 200, entry);
    }
    return send(response, 404, { error: "unknown control route" });
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    const raw = await readBody(request);
    if (raw === null) return send(response, 413, serviceException("BAD_REQUEST", "Request entity too large"));
    let body: unknown;
    try {
      body = raw === "" ? undefined : JSON.parse(raw);
    } catch {
      body = Symbol.for("invalid-json");
    }

    if (path.startsWith("/__fake/")) return control(path, body, response);

    const endpoint: FakeEndpoint | undefined =
      path === WHATSAPP_TEXT_PATH ? "text" : path === WHATSAPP_TEMPLATE_PATH ? "template" : undefined;
    const log: FakeRequestLog = {
      method: request.method ?? "",
      path,
      status: 200,
      authorization: request.headers.authorization,
      messageIds: [],
      at: new Date(),
    };
    requests.push(log);
    const answer = async (status: number, payload: unknown, headers?: Record<string, string>) => {
      log.status = status;
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      send(response, status, payload, headers);
    };

    if (request.headers.authorization !== `App ${options.apiKey}`) return answer(401, defaultErrorBody(401));
    if (!endpoint) return answer(404, defaultErrorBody(404));
    if (request.method !== "POST") return answer(405, serviceException("BAD_REQUEST", "Method not allowed"));
    if (!isObject(body))
      return answer(400, serviceException("BAD_REQUEST", "Bad request", { body: ["invalid JSON"] }));

    const recipient = endpoint === "text" ? body.to : (body.messages as Json[] | undefined)?.[0]?.to;
    const failure = takeFailure(endpoint, recipient);
    if (failure && typeof failure.status === "number") {
      const headers: Record<string, string> =
        failure.retryAfter !== undefined ? { "retry-after": String(failure.retryAfter) } : {};
      return answer(failure.status, failure.body ?? defaultErrorBody(failure.status), headers);
    }

    if (failure?.status === "timeout") {
      // Never answered: the client's own timeout has to fire. close() ends the connection.
      log.status = "hang";
      return;
    }
    const errors = endpoint === "text" ? validateText(body) : validateTemplate(body);
    if (Object.keys(errors).length > 0)
      return answer(400, serviceException("BAD_REQUEST", "Bad request", errors));

    let payload: unknown;
    if (endpoint === "text") {
      const result = accept("text", body);
      log.messageIds.push(result.messageId);
      payload = { to: result.to, messageCount: 1, messageId: result.messageId, status: pendingStatus };
    } else {
      const bulkId = nonBlank(body.bulkId) ? body.bulkId : randomUUID();
      const results = (body.messages as Json[]).map((message) => accept("template", message, bulkId));
      log.messageIds.push(...results.map((result) => result.messageId));
      payload = {
        messages: results.map((result) => ({
          to: result.to,
          messageCount: 1,
          messageId: result.messageId,
          status: pendingStatus,
        })),
        bulkId: results[0]?.bulkId ?? bulkId,
      };
    }
    if (failure?.status === "accept-then-timeout") {
      log.status = "hang";
      return;
    }
    return answer(200, payload);
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, defaultErrorBody(500));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  async function simulateInbound(input: { from: string; text: string; contactName?: string; to?: string }) {
    const messageId = randomUUID();
    if (!options.inboundUrl) throw new Error("the fake has no inboundUrl");
    return post("inbound", options.inboundUrl, messageId, {
      results: [
        {
          from: input.from,
          to: input.to ?? SENDER_FOR_INBOUND,
          integrationType: "WHATSAPP",
          receivedAt: formatInfobipDate(new Date()),
          messageId,
          pairedMessageId: null,
          callbackData: null,
          message: { type: "TEXT", text: input.text },
          ...(input.contactName ? { contact: { name: input.contactName } } : {}),
          price: { pricePerMessage: 0, currency: "USD" },
        },
      ],
      messageCount: 1,
      pendingMessageCount: 0,
    });
  }

  function reset() {
    generation += 1;
    sent.length = 0;
    requests.length = 0;
    reports.length = 0;
    failures.length = 0;
    accepted.clear();
    undeliverable.clear();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    latencyMs = initialLatency;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    sent,
    requests,
    reports,
    failNext(times, status, body) {
      failWith({ status, times, body });
    },
    failWith,
    setLatency(ms) {
      latencyMs = ms;
    },
    markUndeliverable(to) {
      undeliverable.add(to);
    },
    simulateInbound,
    async idle() {
      while (timers.size > 0 || inFlight.size > 0) {
        await Promise.all(inFlight);
        if (timers.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    reset,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled(inFlight);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
