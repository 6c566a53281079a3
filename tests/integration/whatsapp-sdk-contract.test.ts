import { randomUUID } from "node:crypto";
import { AuthType, Infobip } from "@infobip-api/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startWhatsAppFake, type WhatsAppFake } from "~/integrations/whatsapp/whatsapp-fake";
import {
  WHATSAPP_TEMPLATE_PATH,
  WHATSAPP_TEXT_PATH,
  whatsAppBulkMessageInfoSchema,
  whatsAppErrorBodySchema,
  whatsAppSingleMessageInfoSchema,
} from "~/integrations/whatsapp/whatsapp-schemas";

// The fake provider held to the real contract by a client nobody here wrote: Infobip's official Node SDK
// (@infobip-api/sdk 0.3.2, axios underneath). It sends `Authorization: App <key>` (src/utils/auth.ts), posts the
// whole message object, `type` included, to /whatsapp/1/message/{text,template} (src/apis/whatsapp.ts), and on
// an HTTP error *returns* (does not throw) the AxiosError, whose `response` holds the status and the vendor body.

const API_KEY = `key-${randomUUID()}`;

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

function sdk(apiKey = API_KEY) {
  return new Infobip({ baseUrl: fake.url, apiKey, authType: AuthType.ApiKey });
}

/** The parts of an axios response the SDK hands back (axios is the SDK's dependency, not ours). */
interface SdkResponse {
  status: number;
  data: unknown;
  headers: Record<string, string | undefined>;
}

type SdkResult = SdkResponse | (Error & { isAxiosError?: boolean; response?: SdkResponse });

/** What the SDK's send resolves with: the axios response, or the AxiosError it caught. */
async function send(infobip: Infobip, message: unknown): Promise<SdkResult> {
  return (await infobip.channels.whatsapp.send(message)) as SdkResult;
}

function errorResponse(result: SdkResult): SdkResponse {
  expect(result).toBeInstanceOf(Error);
  expect(result).toMatchObject({ isAxiosError: true });
  const response = (result as { response?: SdkResponse }).response;
  expect(response).toBeDefined();
  return response as SdkResponse;
}

describe("Infobip's SDK against the fake", () => {
  it("sends a text message and reads the single-message answer", async () => {
    const messageId = randomUUID();
    const result = await send(sdk(), {
      type: "text",
      from: "56223456789",
      to: "56987654321",
      messageId,
      content: { text: "Hola desde el SDK" },
      callbackData: "sdk:text",
    });
    expect(result).not.toBeInstanceOf(Error);
    const response = result as SdkResponse;
    expect(response.status).toBe(200);
    const info = whatsAppSingleMessageInfoSchema.parse(response.data);
    expect(info).toMatchObject({ to: "56987654321", messageId, status: { groupName: "PENDING" } });

    expect(fake.requests[0]).toMatchObject({ path: WHATSAPP_TEXT_PATH, authorization: `App ${API_KEY}` });
    expect(fake.sent).toEqual([
      expect.objectContaining({
        endpoint: "text",
        from: "56223456789",
        to: "56987654321",
        text: "Hola desde el SDK",
        messageId,
        callbackData: "sdk:text",
      }),
    ]);
  });

  it("sends a template message and reads the bulk answer", async () => {
    const result = await send(sdk(), {
      type: "template",
      messages: [
        {
          from: "56223456789",
          to: "56987654321",
          content: {
            templateName: "recordatorio_cita",
            templateData: { body: { placeholders: ["Ana", "martes", "10:30"] } },
            language: "es",
          },
        },
      ],
    });
    expect(result).not.toBeInstanceOf(Error);
    const response = result as SdkResponse;
    expect(response.status).toBe(200);
    const info = whatsAppBulkMessageInfoSchema.parse(response.data);
    expect(info.messages).toHaveLength(1);
    expect(info.messages[0]).toMatchObject({ to: "56987654321", status: { groupName: "PENDING" } });
    expect(info.bulkId).toEqual(expect.any(String));

    expect(fake.requests[0]?.path).toBe(WHATSAPP_TEMPLATE_PATH);
    expect(fake.sent[0]).toMatchObject({
      endpoint: "template",
      template: "recordatorio_cita",
      language: "es",
      placeholders: ["Ana", "martes", "10:30"],
      messageId: info.messages[0]?.messageId,
    });
  });

  it("sees a wrong key as the real API's 401 UNAUTHORIZED", async () => {
    const result = await send(sdk("not-the-key"), {
      type: "text",
      from: "56223456789",
      to: "56987654321",
      content: { text: "x" },
    });
    const response = errorResponse(result);
    expect(response.status).toBe(401);
    expect(whatsAppErrorBodySchema.parse(response.data).requestError.serviceException).toEqual({
      messageId: "UNAUTHORIZED",
      text: "Invalid login details",
    });
    expect(fake.sent).toHaveLength(0);
  });

  it("sees throttling as the real API's 429 TOO_MANY_REQUESTS (and does not retry by itself)", async () => {
    fake.failWith({ status: 429, retryAfter: 1 });
    const result = await send(sdk(), {
      type: "text",
      from: "56223456789",
      to: "56987654321",
      content: { text: "x" },
    });
    const response = errorResponse(result);
    expect(response.status).toBe(429);
    expect(response.headers["retry-after"]).toBe("1");
    expect(whatsAppErrorBodySchema.parse(response.data).requestError.serviceException.messageId).toBe(
      "TOO_MANY_REQUESTS",
    );
    expect(fake.requests).toHaveLength(1);
    expect(fake.sent).toHaveLength(0);
  });

  it("sees the fake's 400 with validationErrors for what the SDK lets through", async () => {
    // The SDK checks only that content is an object for text; a blank text reaches the API, which refuses it.
    const result = await send(sdk(), {
      type: "text",
      from: "56223456789",
      to: "56987654321",
      content: { text: " " },
    });
    const response = errorResponse(result);
    expect(response.status).toBe(400);
    expect(whatsAppErrorBodySchema.parse(response.data).requestError.serviceException).toMatchObject({
      messageId: "BAD_REQUEST",
      validationErrors: { "content.text": ["must not be blank"] },
    });
  });
});
