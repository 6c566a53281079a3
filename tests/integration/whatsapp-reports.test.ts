import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWhatsAppClient, type WhatsAppClient } from "~/integrations/whatsapp/whatsapp-client.server";
import { startWhatsAppFake, type WhatsAppFake } from "~/integrations/whatsapp/whatsapp-fake";
import {
  WHATSAPP_WEBHOOK_SECRET_HEADER,
  parseInfobipDate,
  whatsAppDeliveryReportSchema,
  whatsAppInboundSchema,
  whatsAppSeenReportSchema,
} from "~/integrations/whatsapp/whatsapp-schemas";

// What the fake provider posts back after accepting a message (delivery, then seen) and the inbound messages it
// simulates, received by a small HTTP server standing in for the app's webhooks (the routes themselves: whatsapp-delivery and whatsapp-inbound tests).

interface Received {
  path: string;
  secret: string | undefined;
  body: unknown;
}

interface Receiver {
  url: string;
  received: Received[];
  /** The status the receiver answers with (a webhook that is down answers 503). */
  status: number;
  waitFor(count: number, path?: string): Promise<Received[]>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const secret = request.headers[WHATSAPP_WEBHOOK_SECRET_HEADER.toLowerCase()];
      received.push({
        path: request.url ?? "",
        secret: Array.isArray(secret) ? secret.join(",") : secret,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown,
      });
      response.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    status: 200,
    async waitFor(count, path) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const matching = received.filter((entry) => !path || entry.path === path);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`expected ${count} posts to ${path ?? "any path"}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return receiver;
}

const API_KEY = `key-${randomUUID()}`;
const SECRET = `secret-${randomUUID()}`;
const PATIENT = "+56 9 8765 4321";

let receiver: Receiver;
let fake: WhatsAppFake;
let client: WhatsAppClient;

beforeAll(async () => {
  receiver = await startReceiver();
  fake = await startWhatsAppFake({
    apiKey: API_KEY,
    reportsUrl: `${receiver.url}/api/whatsapp/reports`,
    inboundUrl: `${receiver.url}/api/whatsapp/inbound`,
    reportsSecret: SECRET,
    reportDelayMs: 10,
  });
  client = createWhatsAppClient({
    baseUrl: fake.url,
    apiKey: API_KEY,
    sender: "+56223456789",
    // The fake answers from this process's event loop, which PGlite blocks while it runs a statement: on a
    // loaded machine 2 s was not always enough (CI). The timeout tests pass their own.
    timeoutMs: 10_000,
  });
});
afterAll(async () => {
  await fake?.close();
  await receiver?.close();
});
beforeEach(async () => {
  // Reports of the previous test still on their way would land in this one's receiver.
  await fake.idle();
  fake.reset();
  receiver.received.length = 0;
  receiver.status = 200;
});

describe("delivery and seen reports", () => {
  it("posts DELIVERED_TO_HANDSET and then a seen report, with the secret header", async () => {
    const messageId = randomUUID();
    await client.sendText({ to: PATIENT, text: "Hola", messageId, callbackData: "lead:7" });
    const [delivery, seen] = await receiver.waitFor(2, "/api/whatsapp/reports");
    expect(delivery?.secret).toBe(SECRET);
    expect(seen?.secret).toBe(SECRET);

    const report = whatsAppDeliveryReportSchema.parse(delivery?.body);
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({
      messageId,
      to: "56987654321",
      callbackData: "lead:7",
      status: { groupName: "DELIVERED", name: "DELIVERED_TO_HANDSET" },
      error: { name: "NO_ERROR" },
    });

    const seenReport = whatsAppSeenReportSchema.parse(seen?.body);
    expect(seenReport.results[0]).toMatchObject({ messageId, to: "56987654321", from: "56223456789" });
    const sentAt = parseInfobipDate(report.results[0]?.sentAt ?? "");
    const seenAt = parseInfobipDate(seenReport.results[0]?.seenAt ?? "");
    expect(sentAt).not.toBeNull();
    expect(seenAt!.getTime()).toBeGreaterThanOrEqual(sentAt!.getTime());

    await fake.idle();
    expect(fake.reports.map((entry) => [entry.kind, entry.status])).toEqual([
      ["delivery", 200],
      ["seen", 200],
    ]);
  });

  it("reports a template message with its bulkId", async () => {
    const messageId = randomUUID();
    await client.sendTemplate({ to: PATIENT, templateName: "aviso", placeholders: ["Ana"], messageId });
    const [delivery] = await receiver.waitFor(1, "/api/whatsapp/reports");
    const report = whatsAppDeliveryReportSchema.parse(delivery?.body);
    expect(report.results[0]?.messageId).toBe(messageId);
    expect(report.results[0]?.bulkId).toEqual(expect.any(String));
  });

  it("reports a repeated messageId once", async () => {
    const messageId = randomUUID();
    await client.sendText({ to: PATIENT, text: "Hola", messageId });
    await client.sendText({ to: PATIENT, text: "Hola", messageId });
    await fake.idle();
    expect(receiver.received.map((entry) => (entry.body as { results: unknown[] }).results.length)).toEqual([
      1, 1,
    ]);
    expect(fake.reports.map((entry) => entry.kind)).toEqual(["delivery", "seen"]);
  });

  it("sends reports to the message's own notifyUrl when it has one", async () => {
    const withNotify = createWhatsAppClient({
      baseUrl: fake.url,
      apiKey: API_KEY,
      sender: "+56223456789",
      notifyUrl: `${receiver.url}/hooks/custom`,
    });
    await withNotify.sendText({ to: PATIENT, text: "Hola", messageId: randomUUID() });
    await receiver.waitFor(2, "/hooks/custom");
    expect(receiver.received.every((entry) => entry.path === "/hooks/custom")).toBe(true);
  });

  it("reports UNDELIVERABLE for a number marked so, with the error and no seen report", async () => {
    fake.markUndeliverable("56987654321");
    await client.sendText({ to: PATIENT, text: "Hola", messageId: randomUUID() });
    await fake.idle();
    expect(receiver.received).toHaveLength(1);
    const report = whatsAppDeliveryReportSchema.parse(receiver.received[0]?.body);
    expect(report.results[0]).toMatchObject({
      status: { groupName: "UNDELIVERABLE" },
      error: { permanent: true },
    });
  });

  it("records how the app answered (a webhook that is down)", async () => {
    receiver.status = 503;
    await client.sendText({ to: PATIENT, text: "Hola", messageId: randomUUID() });
    await fake.idle();
    expect(fake.reports.map((entry) => entry.status)).toEqual([503, 503]);
  });

  it("sends nothing when nothing was accepted (test mode, failures)", async () => {
    const testClient = createWhatsAppClient({ baseUrl: fake.url, sender: "+56223456789", testMode: true });
    await testClient.sendText({ to: PATIENT, text: "Hola", messageId: randomUUID() });
    fake.failNext(1, 500);
    await createWhatsAppClient({ baseUrl: fake.url, apiKey: API_KEY, sender: "+56223456789", retries: 0 })
      .sendText({ to: PATIENT, text: "Hola", messageId: randomUUID() })
      .catch(() => undefined);
    await fake.idle();
    expect(receiver.received).toHaveLength(0);
  });
});

describe("inbound messages", () => {
  it("posts a patient's text in Infobip's inbound shape, with the secret header", async () => {
    const posted = await fake.simulateInbound({
      from: "56987654321",
      text: "Hola, quiero una hora",
      contactName: "Ana",
    });
    expect(posted).toMatchObject({ kind: "inbound", status: 200 });
    const [inbound] = await receiver.waitFor(1, "/api/whatsapp/inbound");
    expect(inbound?.secret).toBe(SECRET);
    const parsed = whatsAppInboundSchema.parse(inbound?.body);
    expect(parsed.results[0]).toMatchObject({
      from: "56987654321",
      integrationType: "WHATSAPP",
      message: { type: "TEXT", text: "Hola, quiero una hora" },
      contact: { name: "Ana" },
      messageId: posted.messageId,
    });
  });

  it("can be driven from another process through the control routes", async () => {
    const response = await fetch(`${fake.url}/__fake/inbound`, {
      method: "POST",
      body: JSON.stringify({ from: "56911112222", text: "¿Atienden el sábado?" }),
    });
    expect(response.status).toBe(200);
    const [inbound] = await receiver.waitFor(1, "/api/whatsapp/inbound");
    expect(whatsAppInboundSchema.parse(inbound?.body).results[0]?.from).toBe("56911112222");

    await fetch(`${fake.url}/__fake/fail`, {
      method: "POST",
      body: JSON.stringify({ status: 500, times: 1 }),
    });
    const failed = await createWhatsAppClient({
      baseUrl: fake.url,
      apiKey: API_KEY,
      sender: "+56223456789",
      retries: 0,
    })
      .sendText({ to: PATIENT, text: "x", messageId: "ctl-1" })
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ status: 500 });
    await client.sendText({ to: PATIENT, text: "x", messageId: "ctl-2" });
    const sent = (await (await fetch(`${fake.url}/__fake/sent`)).json()) as {
      sent: Array<{ messageId: string }>;
    };
    expect(sent.sent.map((message) => message.messageId)).toEqual(["ctl-2"]);
  });
});
