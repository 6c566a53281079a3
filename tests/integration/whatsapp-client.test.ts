import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { IntegrationError } from "~/integrations/http.server";
import {
  WhatsAppInputError,
  createWhatsAppClient,
  type WhatsAppClientOptions,
} from "~/integrations/whatsapp/whatsapp-client.server";
import { startWhatsAppFake, type WhatsAppFake } from "~/integrations/whatsapp/whatsapp-fake";
import {
  WHATSAPP_TEMPLATE_PATH,
  WHATSAPP_TEXT_PATH,
  whatsAppSendResponseSchema,
  whatsAppValidationErrors,
} from "~/integrations/whatsapp/whatsapp-schemas";

// The WhatsApp client against the fake provider over real HTTP: sends, each error class, retries, timeouts,
// idempotency and test mode. No mocks: the fake answers as Infobip does (docs/research/dentalink-whatsapp-chile.md §2).

const API_KEY = `key-${randomUUID()}`;
const SENDER = "+56 2 2345 6789";
const PATIENT = "+56 9 8765 4321";

let fake: WhatsAppFake;

beforeAll(async () => {
  fake = await startWhatsAppFake({ apiKey: API_KEY });
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
});

function client(overrides: Partial<WhatsAppClientOptions> = {}) {
  return createWhatsAppClient({
    baseUrl: fake.url,
    apiKey: API_KEY,
    sender: SENDER,
    // The fake answers from this process's event loop, which PGlite blocks while it runs a statement: on a
    // loaded machine 2 s was not always enough (CI). The timeout tests pass their own.
    timeoutMs: 10_000,
    retries: 2,
    backoff: { baseMs: 5, maxMs: 20 },
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

async function integrationFailure(promise: Promise<unknown>): Promise<IntegrationError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(IntegrationError);
  return error as IntegrationError;
}

describe("sending", () => {
  it("sends a text with the key, the sender and the caller's messageId, and gets it accepted", async () => {
    const messageId = randomUUID();
    const result = await client().sendText({
      to: PATIENT,
      text: "Hola Ana, tu hora quedó reservada.",
      messageId,
      callbackData: "appointment:1",
    });
    expect(result).toEqual({
      messageId,
      status: "accepted",
      groupName: "PENDING",
      statusName: "PENDING_ENROUTE",
      testMode: false,
    });
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]).toMatchObject({
      endpoint: "text",
      from: "56223456789",
      to: "56987654321",
      text: "Hola Ana, tu hora quedó reservada.",
      messageId,
      callbackData: "appointment:1",
    });
    expect(fake.requests[0]).toMatchObject({ method: "POST", path: WHATSAPP_TEXT_PATH, status: 200 });
    expect(fake.requests[0]?.authorization).toBe(`App ${API_KEY}`);
  });

  it("sends a template in Spanish with placeholders and URL buttons", async () => {
    const messageId = randomUUID();
    const result = await client().sendTemplate({
      to: PATIENT,
      templateName: "recordatorio_cita",
      placeholders: ["Ana", "martes 3 de marzo", "10:30"],
      buttons: [
        { type: "URL", parameter: "confirmar/abc" },
        { type: "URL", parameter: "cancelar/def" },
      ],
      messageId,
    });
    expect(result).toMatchObject({ messageId, status: "accepted", groupName: "PENDING", testMode: false });
    expect(fake.sent).toEqual([
      expect.objectContaining({
        endpoint: "template",
        to: "56987654321",
        template: "recordatorio_cita",
        language: "es",
        placeholders: ["Ana", "martes 3 de marzo", "10:30"],
        buttons: [
          { type: "URL", parameter: "confirmar/abc" },
          { type: "URL", parameter: "cancelar/def" },
        ],
        messageId,
      }),
    ]);
    expect(fake.requests[0]?.path).toBe(WHATSAPP_TEMPLATE_PATH);
  });

  it("accepts a base URL with a trailing slash", async () => {
    const result = await client({ baseUrl: `${fake.url}/` }).sendText({
      to: PATIENT,
      text: "x",
      messageId: randomUUID(),
    });
    expect(result.status).toBe("accepted");
  });
});

describe("errors", () => {
  it("401: a wrong key fails at once with UNAUTHORIZED and never shows the key", async () => {
    const wrongKey = `wrong-${randomUUID()}`;
    const error = await integrationFailure(
      client({ apiKey: wrongKey }).sendText({ to: PATIENT, text: "x", messageId: randomUUID() }),
    );
    expect(error).toMatchObject({ system: "whatsapp", status: 401, code: "UNAUTHORIZED", retryable: false });
    expect(error.body).toEqual({
      requestError: { serviceException: { messageId: "UNAUTHORIZED", text: "Invalid login details" } },
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.sent).toHaveLength(0);
    expect(`${error.message} ${JSON.stringify(error)} ${String(error.stack)}`).not.toContain(wrongKey);
  });

  it("400: validation errors come back in the error, without a retry", async () => {
    fake.failNext(1, 400);
    const error = await integrationFailure(
      client().sendText({ to: PATIENT, text: "x", messageId: randomUUID() }),
    );
    expect(error).toMatchObject({ status: 400, code: "BAD_REQUEST", retryable: false });
    expect(whatsAppValidationErrors(error.body)).toEqual({ "content.text": ["must not be blank"] });
    expect(fake.requests).toHaveLength(1);
  });

  it("refuses a bad number or an empty text before any HTTP", async () => {
    const badNumber = await failure(
      client().sendText({ to: "+56 9 12", text: "x", messageId: randomUUID() }),
    );
    expect(badNumber).toBeInstanceOf(WhatsAppInputError);
    expect(badNumber).toMatchObject({ code: "INVALID_PHONE" });
    const empty = await failure(client().sendText({ to: PATIENT, text: "", messageId: randomUUID() }));
    expect(empty).toMatchObject({ code: "INVALID_MESSAGE" });
    const tooLong = await failure(client().sendText({ to: PATIENT, text: "a".repeat(4097), messageId: "m" }));
    expect(tooLong).toMatchObject({ code: "INVALID_MESSAGE" });
    const noId = await failure(client().sendText({ to: PATIENT, text: "x", messageId: "" }));
    expect(noId).toMatchObject({ code: "INVALID_MESSAGE" });
    expect(fake.requests).toHaveLength(0);
  });

  it("429: retried with backoff, then sent once", async () => {
    fake.failWith({ status: 429, times: 1, retryAfter: 0 });
    const retries: number[] = [];
    const messageId = randomUUID();
    const result = await client({ onRetry: ({ delayMs }) => retries.push(delayMs) }).sendText({
      to: PATIENT,
      text: "x",
      messageId,
    });
    expect(result.messageId).toBe(messageId);
    expect(fake.requests.map((request) => request.status)).toEqual([429, 200]);
    expect(retries).toHaveLength(1);
    expect(fake.sent).toHaveLength(1);
  });

  it("500: retried up to the bound, then an IntegrationError with the last answer", async () => {
    fake.failNext(5, 500);
    const error = await integrationFailure(
      client({ retries: 2 }).sendTemplate({
        to: PATIENT,
        templateName: "aviso",
        placeholders: [],
        messageId: randomUUID(),
      }),
    );
    expect(error).toMatchObject({ status: 500, code: "GENERAL_ERROR", retryable: true, attempts: 3 });
    expect(fake.requests.map((request) => request.status)).toEqual([500, 500, 500]);
    expect(fake.sent).toHaveLength(0);
  });

  it("timeout: a provider that does not answer fails within the short timeout", async () => {
    fake.failNext(1, "timeout");
    const started = performance.now();
    const error = await integrationFailure(
      client({ timeoutMs: 150, retries: 0 }).sendText({ to: PATIENT, text: "x", messageId: randomUUID() }),
    );
    expect(error).toMatchObject({ system: "whatsapp", status: null, code: "TIMEOUT", retryable: true });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(fake.requests.map((request) => request.status)).toEqual(["hang"]);
  });

  it("timeout: retried, and the next attempt succeeds", async () => {
    fake.failNext(1, "timeout");
    const result = await client({ timeoutMs: 150, retries: 1 }).sendText({
      to: PATIENT,
      text: "x",
      messageId: randomUUID(),
    });
    expect(result.status).toBe("accepted");
    expect(fake.requests.map((request) => request.status)).toEqual(["hang", 200]);
  });

  it("a REJECTED group in the synchronous answer is a failure with the status name as code", async () => {
    fake.failWith({
      status: 200,
      body: {
        to: "56987654321",
        messageCount: 1,
        messageId: "m-1",
        status: {
          groupId: 5,
          groupName: "REJECTED",
          id: 12,
          name: "REJECTED_NOT_ENOUGH_CREDITS",
          description: "Not enough credits",
        },
      },
    });
    const error = await integrationFailure(client().sendText({ to: PATIENT, text: "x", messageId: "m-1" }));
    expect(error).toMatchObject({ status: 200, code: "REJECTED_NOT_ENOUGH_CREDITS", retryable: false });
    expect(fake.requests).toHaveLength(1);
  });

  it("an answer in an unknown shape is an IntegrationError, not a crash", async () => {
    fake.failWith({ status: 200, body: { accepted: true } });
    const error = await integrationFailure(
      client().sendText({ to: PATIENT, text: "x", messageId: randomUUID() }),
    );
    expect(error).toMatchObject({ status: 200, code: "INVALID_RESPONSE", retryable: false });
    expect(error.body).toBe('{"accepted":true}');
  });

  it("a provider that is not there is a retryable network error", async () => {
    const closed = await startWhatsAppFake({ apiKey: API_KEY });
    await closed.close();
    const error = await integrationFailure(
      client({ baseUrl: closed.url, retries: 1 }).sendText({
        to: PATIENT,
        text: "x",
        messageId: randomUUID(),
      }),
    );
    expect(error).toMatchObject({ status: null, code: "NETWORK", retryable: true, attempts: 2 });
  });
});

describe("idempotency on messageId", () => {
  it("the same messageId twice is one message at the provider, with the same answer", async () => {
    const messageId = randomUUID();
    const first = await client().sendText({ to: PATIENT, text: "x", messageId });
    const second = await client().sendText({ to: PATIENT, text: "x", messageId });
    expect(second).toEqual(first);
    const template = { to: PATIENT, templateName: "aviso", placeholders: ["a"], messageId: randomUUID() };
    await client().sendTemplate(template);
    await client().sendTemplate(template);
    expect(fake.requests).toHaveLength(4);
    expect(fake.sent.map((message) => message.endpoint)).toEqual(["text", "template"]);
  });

  it("an answer lost on the way back is retried with the same id and sent once", async () => {
    fake.failNext(1, "accept-then-timeout");
    const messageId = randomUUID();
    const result = await client({ timeoutMs: 150, retries: 1 }).sendText({
      to: PATIENT,
      text: "x",
      messageId,
    });
    expect(result.messageId).toBe(messageId);
    expect(fake.requests.map((request) => request.status)).toEqual(["hang", 200]);
    expect(fake.sent).toHaveLength(1);
  });
});

describe("test mode", () => {
  it("sends nothing and answers accepted with a test id", async () => {
    const testClient = createWhatsAppClient({ baseUrl: fake.url, sender: SENDER, testMode: true });
    expect(testClient.testMode).toBe(true);
    const text = await testClient.sendText({ to: PATIENT, text: "x", messageId: randomUUID() });
    const template = await testClient.sendTemplate({
      to: PATIENT,
      templateName: "aviso",
      placeholders: [],
      messageId: randomUUID(),
    });
    for (const result of [text, template]) {
      expect(result).toMatchObject({ status: "accepted", testMode: true });
      expect(result.messageId).toMatch(/^test-[0-9a-f-]{36}$/);
    }
    expect(text.messageId).not.toBe(template.messageId);
    expect(fake.requests).toHaveLength(0);
    expect(fake.sent).toHaveLength(0);
  });

  it("still refuses what the provider would refuse", async () => {
    const testClient = createWhatsAppClient({ baseUrl: fake.url, sender: SENDER, testMode: true });
    await expect(testClient.sendText({ to: "abc", text: "x", messageId: "m" })).rejects.toMatchObject({
      code: "INVALID_PHONE",
    });
  });

  it("is required when there is no key", () => {
    expect(() => createWhatsAppClient({ baseUrl: fake.url, sender: SENDER })).toThrow(/API key/);
  });
});

/** A request straight to the fake, as another client would send it. */
async function raw(endpoint: string, body: unknown, key = API_KEY) {
  const response = await fetch(`${fake.url}${endpoint}`, {
    method: "POST",
    headers: { authorization: `App ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("the fake holds to the contract", () => {
  it("answers 400 with validationErrors for a missing text, recipient or template name", async () => {
    const text = await raw(WHATSAPP_TEXT_PATH, { from: "56223456789", content: {} });
    expect(text.status).toBe(400);
    expect(whatsAppValidationErrors(text.body)).toEqual({
      to: ["must not be blank"],
      "content.text": ["must not be blank"],
    });
    const template = await raw(WHATSAPP_TEMPLATE_PATH, {
      messages: [
        { from: "1", to: "2", content: { language: "es", templateData: { body: { placeholders: [] } } } },
      ],
    });
    expect(template.status).toBe(400);
    expect(whatsAppValidationErrors(template.body)).toEqual({
      "messages[0].content.templateName": ["must not be blank"],
    });
    expect(fake.sent).toHaveLength(0);
  });

  it("checks the scheme of the key too", async () => {
    const response = await fetch(`${fake.url}${WHATSAPP_TEXT_PATH}`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}` },
      body: "{}",
    });
    expect(response.status).toBe(401);
  });

  it("answers text with the single-message shape and templates with the bulk shape", async () => {
    const text = await raw(WHATSAPP_TEXT_PATH, { from: "1", to: "56987654321", content: { text: "x" } });
    expect(text.body).toMatchObject({ to: "56987654321", messageCount: 1, status: { groupName: "PENDING" } });
    expect(text.body).not.toHaveProperty("messages");
    const template = await raw(WHATSAPP_TEMPLATE_PATH, {
      bulkId: "bulk-1",
      messages: [
        {
          from: "1",
          to: "56987654321",
          content: { templateName: "aviso", language: "es", templateData: { body: { placeholders: [] } } },
        },
      ],
    });
    expect(template.body).toMatchObject({ bulkId: "bulk-1", messages: [{ to: "56987654321" }] });
    expect(whatsAppSendResponseSchema.safeParse(text.body).success).toBe(true);
    expect(whatsAppSendResponseSchema.safeParse(template.body).success).toBe(true);
  });

  it("adds latency when asked", async () => {
    fake.setLatency(120);
    const started = performance.now();
    await client().sendText({ to: PATIENT, text: "x", messageId: randomUUID() });
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  });
});

describe("the standalone fake (npm run dev, Playwright)", () => {
  it("starts from the environment and serves the API with the key it was given", async () => {
    const child = spawn(
      process.execPath,
      [path.resolve(import.meta.dirname, "../setup/run-whatsapp-fake.mjs")],
      {
        env: { PATH: process.env.PATH ?? "", WHATSAPP_FAKE_PORT: "0", WHATSAPP_API_KEY: API_KEY },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = "";
        const timer = setTimeout(() => reject(new Error(`fake did not start: ${output}`)), 10_000);
        const collect = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /fake whatsapp ready (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        child.stdout.on("data", collect);
        child.stderr.on("data", collect);
      });
      const result = await client({ baseUrl: url }).sendText({ to: PATIENT, text: "x", messageId: "cli-1" });
      expect(result).toMatchObject({ messageId: "cli-1", status: "accepted" });
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });
});
