import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { consents, outbox, whatsAppContacts, whatsAppMessages } from "~/db/schema";
import type { WhatsAppFake } from "~/integrations/whatsapp/whatsapp-fake";
import { WHATSAPP_WEBHOOK_SECRET_HEADER } from "~/integrations/whatsapp/whatsapp-schemas";
import { uniquePhone } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import {
  REPORTS_PATH,
  startWhatsAppHarness,
  webhookRequest,
  type WhatsAppHarness,
  type WhatsAppRelay,
} from "../setup/whatsapp-harness";

// WhatsApp through the outbox: enqueue in the business transaction, delivery by the worker's handler to
// the fake provider over HTTP with messageId = the outbox id, and the provider's reports through the webhook route.

const API_KEY = "fake-whatsapp-key-delivery";
const SECRET = "webhook-secret-0123456789abcdef";
const SENDER = "56900000001";

/** The app modules, imported only after the WHATSAPP_* variables are set (env() is cached on first use). */
async function importApp() {
  const [client, outboxModule, worker, messaging, settings, route] = await Promise.all([
    import("~/db/client.server"),
    import("~/features/outbox/outbox.server"),
    import("~/jobs/outbox-worker.server"),
    import("~/features/messaging/whatsapp-outbox.server"),
    import("~/features/messaging/whatsapp-settings.server"),
    import("~/routes/api/whatsapp-reports"),
  ]);
  return {
    getDb: client.getDb,
    closeDb: client.closeDb,
    deliverDue: outboxModule.deliverDue,
    outboxHandlers: worker.outboxHandlers,
    enqueueWhatsApp: messaging.enqueueWhatsApp,
    createHandler: messaging.createWhatsAppOutboxHandler,
    whatsAppSettings: settings.whatsAppSettings,
    reportsAction: route.action,
  };
}

/** A provider's POST to the webhook: no Origin, no cookie, only the secret header (when given). */
async function post(
  body: string,
  headers: Record<string, string> = { [WHATSAPP_WEBHOOK_SECRET_HEADER]: SECRET },
) {
  return (await app.reportsAction(routeArgs(webhookRequest(REPORTS_PATH, body, headers)))) as Response;
}

let harness: WhatsAppHarness;
let fake: WhatsAppFake;
let relay: WhatsAppRelay;
let app: Awaited<ReturnType<typeof importApp>>;

beforeAll(async () => {
  harness = await startWhatsAppHarness({
    apiKey: API_KEY,
    secret: SECRET,
    sender: SENDER,
    reportDelayMs: 150,
    webhooks: (_path, request) => app.reportsAction(routeArgs(request)) as Promise<Response>,
  });
  fake = harness.fake;
  relay = harness.relay!;
  app = await importApp();
  await app.getDb();
});

afterAll(async () => {
  await harness?.close();
  await app?.closeDb();
});

beforeEach(async () => {
  await harness.reset();
});

/**
 * A text-only message to someone who wrote a minute ago: inside their 24-hour window, so it goes out as text (the
 * window's choices are tested in whatsapp-inbound.test.ts).
 */
async function enqueueText(text = "Hola, le escribe Río Clínica.", to = uniquePhone()) {
  const db = await app.getDb();
  await db
    .insert(whatsAppContacts)
    .values({ phone: to.replace(/\D/g, ""), lastInboundAt: new Date(Date.now() - 60_000) });
  const id = await db.transaction((tx) => app.enqueueWhatsApp(tx, { purpose: "test", to, text }));
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id!;
}

async function messageRow(id: string) {
  const db = await app.getDb();
  const [row] = await db.select().from(whatsAppMessages).where(eq(whatsAppMessages.id, id));
  return row!;
}

async function outboxRow(id: string) {
  const db = await app.getDb();
  const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
  return row!;
}

type Handlers = Parameters<Awaited<ReturnType<typeof importApp>>["deliverDue"]>[1];

/**
 * Delivers our row once: made the oldest due row first, since earlier tests may leave due rows, and only
 * WhatsApp rows are offered to the handler. `at` stands for a later clock (a retry's backoff has passed).
 */
async function deliver(id: string, handlers: Handlers = app.outboxHandlers(), at = new Date()) {
  const db = await app.getDb();
  const before = await outboxRow(id);
  // Rows of earlier tests that are still pending stay out of the way (only this file writes WhatsApp rows).
  await db
    .update(outbox)
    .set({ nextAttemptAt: new Date("2999-01-01T00:00:00Z") })
    .where(and(eq(outbox.kind, "whatsapp"), eq(outbox.status, "pending"), ne(outbox.id, id)));
  await db
    .update(outbox)
    .set({ nextAttemptAt: new Date("2000-01-01T00:00:00Z") })
    .where(eq(outbox.id, id));
  for (let round = 0; round < 5; round++) {
    await app.deliverDue(db, { whatsapp: handlers.whatsapp! }, at);
    const row = await outboxRow(id);
    if (row.attempts > before.attempts) return row;
  }
  throw new Error("the outbox row was never attempted");
}

async function waitForStatus(id: string, status: string) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const row = await messageRow(id);
    if (row.status === status) return row;
    if (Date.now() > deadline) throw new Error(`expected ${status}, still ${row.status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("enqueueWhatsApp", () => {
  it("writes the outbox row and the message row with one id, in the caller's transaction", async () => {
    const to = uniquePhone();
    const id = await enqueueText("Su hora quedó reservada.", to);
    expect(await outboxRow(id)).toMatchObject({
      kind: "whatsapp",
      status: "pending",
      payload: { purpose: "test" },
    });
    expect(await messageRow(id)).toMatchObject({
      purpose: "test",
      toPhone: to.slice(1),
      kind: "text",
      text: "Su hora quedó reservada.",
      status: "queued",
      providerMessageId: null,
    });
  });

  it("stores nothing when the transaction rolls back", async () => {
    const db = await app.getDb();
    let id: string | null = null;
    await expect(
      db.transaction(async (tx) => {
        id = await app.enqueueWhatsApp(tx, { purpose: "test", to: uniquePhone(), text: "no" });
        throw new Error("the business write failed");
      }),
    ).rejects.toThrow("the business write failed");
    expect(id).not.toBeNull();
    expect(await db.select().from(outbox).where(eq(outbox.id, id!))).toEqual([]);
    expect(await db.select().from(whatsAppMessages).where(eq(whatsAppMessages.id, id!))).toEqual([]);
  });

  it("refuses a number that cannot be sent to before storing anything", async () => {
    const db = await app.getDb();
    await expect(
      db.transaction((tx) => app.enqueueWhatsApp(tx, { purpose: "test", to: "abc", text: "hola" })),
    ).rejects.toMatchObject({ code: "INVALID_PHONE" });
  });
});

describe("delivery through the outbox", () => {
  it("sends once with messageId = the outbox id, then the reports move it to delivered and read", async () => {
    const id = await enqueueText("Hola desde la clínica.");
    const sent = await deliver(id);
    expect(sent).toMatchObject({ status: "sent", deliveredVia: "whatsapp", attempts: 1, lastError: null });

    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]).toMatchObject({
      endpoint: "text",
      messageId: id,
      from: SENDER,
      text: "Hola desde la clínica.",
      callbackData: "test",
    });
    expect(fake.requests[0]?.authorization).toBe(`App ${API_KEY}`);
    const accepted = await messageRow(id);
    expect(["accepted", "delivered", "read"]).toContain(accepted.status);
    expect(accepted).toMatchObject({ providerMessageId: id, testMode: false });
    expect(accepted.acceptedAt).toBeInstanceOf(Date);

    const delivered = await waitForStatus(id, "delivered");
    expect(delivered.deliveredAt).toBeInstanceOf(Date);
    expect(delivered.readAt).toBeNull();
    const read = await waitForStatus(id, "read");
    expect(read.readAt).toBeInstanceOf(Date);
    await fake.idle();
    expect(fake.reports.map((report) => [report.kind, report.status])).toEqual([
      ["delivery", 200],
      ["seen", 200],
    ]);

    // A replayed report (the provider retries when our answer is lost) changes nothing.
    for (const { body } of relay.received) {
      const answer = await post(body);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ received: 1, updated: 0 });
    }
    expect(await messageRow(id)).toEqual(read);
  });

  it("sends a template with its placeholders", async () => {
    const db = await app.getDb();
    const phone = uniquePhone();
    // A reminder goes only with the consent in the ledger (ADR 037).
    await db.insert(consents).values({
      phone,
      purpose: "recordatorios_whatsapp",
      textVersion: "v1",
      channel: "perfil",
      givenAt: new Date(),
    });
    const id = (await db.transaction((tx) =>
      app.enqueueWhatsApp(tx, {
        purpose: "reminder",
        to: phone,
        template: { name: "recordatorio_cita", placeholders: ["Ana", "martes 3 de marzo, 10:00"] },
      }),
    ))!;
    await deliver(id);
    expect(fake.sent).toEqual([
      expect.objectContaining({
        endpoint: "template",
        messageId: id,
        template: "recordatorio_cita",
        language: "es",
        placeholders: ["Ana", "martes 3 de marzo, 10:00"],
      }),
    ]);
    expect((await messageRow(id)).status).not.toBe("queued");
  });

  it("fails the message for good on a 400 from the provider, without a retry", async () => {
    const id = await enqueueText();
    fake.failNext(1, 400);
    const row = await deliver(id);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row.lastError).toMatch(/BAD_REQUEST/);
    expect(fake.requests).toHaveLength(1);
    expect(fake.sent).toHaveLength(0);
    const message = await messageRow(id);
    expect(message).toMatchObject({ status: "failed", providerMessageId: null });
    expect(message.error).toMatch(/^BAD_REQUEST: whatsapp: POST .* answered 400/);
    expect(message.error).not.toContain(API_KEY);
    expect(message.failedAt).toBeInstanceOf(Date);

    // Not offered again, even long after.
    const db = await app.getDb();
    await app.deliverDue(db, { whatsapp: app.outboxHandlers().whatsapp! }, new Date(Date.now() + 86_400_000));
    expect(fake.requests).toHaveLength(1);
  });

  it("retries a 500 in the client and sends once", async () => {
    const id = await enqueueText();
    fake.failNext(1, 500);
    expect(await deliver(id)).toMatchObject({ status: "sent", attempts: 1 });
    expect(fake.requests.map((request) => request.status)).toEqual([500, 200]);
    expect(fake.sent.map((message) => message.messageId)).toEqual([id]);
  });

  it("leaves the row to the outbox's backoff when every attempt fails with 5xx, then sends it once", async () => {
    const id = await enqueueText();
    fake.failNext(3, 503);
    const handlers = { whatsapp: app.createHandler({ settings: { ...app.whatsAppSettings(), retries: 0 } }) };
    const first = await deliver(id, handlers);
    expect(first).toMatchObject({ status: "pending", attempts: 1 });
    expect(first.lastError).toMatch(/answered 503/);
    expect(first.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    expect((await messageRow(id)).status).toBe("queued");

    const db = await app.getDb();
    // Not due yet: nothing is sent.
    await app.deliverDue(db, handlers);
    expect(fake.requests).toHaveLength(1);

    for (let attempt = 2; ; attempt++) {
      const row = await deliver(id, handlers, new Date(Date.now() + 60 * 60_000));
      if (row.status === "sent") break;
      expect(attempt).toBeLessThan(4);
    }
    expect(fake.sent.map((message) => message.messageId)).toEqual([id]);
    expect((await messageRow(id)).status).not.toBe("queued");
  });

  it("does not come back before a long Retry-After", async () => {
    const id = await enqueueText();
    fake.failWith({ status: 429, retryAfter: 600 });
    const before = Date.now();
    const row = await deliver(id);
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 599_000);
    expect(fake.requests).toHaveLength(1);
  });

  it("sends once when the answer is lost and the same messageId is sent again", async () => {
    const id = await enqueueText();
    fake.failWith({ status: "accept-then-timeout" });
    const handlers = {
      whatsapp: app.createHandler({ settings: { ...app.whatsAppSettings(), timeoutMs: 300 } }),
    };
    expect(await deliver(id, handlers)).toMatchObject({ status: "sent" });
    expect(fake.requests.map((request) => request.status)).toEqual(["hang", 200]);
    expect(fake.sent.map((message) => message.messageId)).toEqual([id]);
  });

  it("sends once when the row is delivered again after a crash between the send and the commit", async () => {
    const id = await enqueueText();
    const handle = app.outboxHandlers().whatsapp!;
    await handle({}, { id, attempts: 1 });
    // The crash: neither the accepted status nor the outbox outcome was committed.
    const db = await app.getDb();
    await db
      .update(whatsAppMessages)
      .set({ status: "queued", providerMessageId: null, acceptedAt: null })
      .where(eq(whatsAppMessages.id, id));
    expect(await deliver(id)).toMatchObject({ status: "sent", attempts: 1 });
    expect(fake.requests).toHaveLength(2);
    expect(fake.sent.map((message) => message.messageId)).toEqual([id]);
    expect((await messageRow(id)).providerMessageId).toBe(id);
  });

  it("records a message the provider could not deliver as failed, with the reason", async () => {
    const to = uniquePhone();
    const id = await enqueueText("hola", to);
    fake.markUndeliverable(to.slice(1));
    await deliver(id);
    const failed = await waitForStatus(id, "failed");
    expect(failed.error).toBe("UNDELIVERABLE_NOT_DELIVERED: EC_UNKNOWN_SUBSCRIBER: Unknown subscriber");
    expect(failed.failedAt).toBeInstanceOf(Date);
  });

  it("sends nothing in test mode and records the message as accepted in test mode", async () => {
    const id = await enqueueText();
    const handlers = {
      whatsapp: app.createHandler({ settings: { ...app.whatsAppSettings(), testMode: true } }),
    };
    expect(await deliver(id, handlers)).toMatchObject({ status: "sent", deliveredVia: "whatsapp-test-mode" });
    expect(fake.requests).toHaveLength(0);
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: "accepted", testMode: true });
    expect(row.providerMessageId).toMatch(/^test-/);
  });
});

function deliveryReport(messageId: string) {
  return JSON.stringify({
    results: [
      {
        messageId,
        to: "56912345678",
        doneAt: "2026-03-01T12:00:00.000+0000",
        status: { groupId: 3, groupName: "DELIVERED", id: 5, name: "DELIVERED_TO_HANDSET" },
        error: { groupId: 0, groupName: "OK", id: 0, name: "NO_ERROR", permanent: false },
      },
    ],
  });
}

describe("POST /api/whatsapp/reports", () => {
  it("answers 401 without the right secret and changes nothing", async () => {
    const id = await enqueueText();
    const before = await messageRow(id);
    const refused: Array<Record<string, string>> = [
      {},
      { [WHATSAPP_WEBHOOK_SECRET_HEADER]: "wrong" },
      { [WHATSAPP_WEBHOOK_SECRET_HEADER]: `${SECRET}x` },
    ];
    for (const headers of refused) {
      const answer = await post(deliveryReport(id), headers);
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ detail: expect.any(String) });
    }
    expect(await messageRow(id)).toEqual(before);

    const accepted = await post(deliveryReport(id));
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ received: 1, updated: 1 });
    expect(await messageRow(id)).toMatchObject({
      status: "delivered",
      deliveredAt: new Date("2026-03-01T12:00:00.000Z"),
    });
  });

  it("answers 400 to a body that is not a report", async () => {
    for (const body of ["not json", "{}", JSON.stringify({ results: [{ messageId: "x" }] })]) {
      const answer = await post(body);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it("ignores unknown message ids", async () => {
    for (const messageId of ["3f1c2b7e-0000-4000-8000-000000000000", "not-ours-123"]) {
      const answer = await post(deliveryReport(messageId));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ received: 1, updated: 0 });
    }
  });

  it("never moves a message back: a late delivery report after the seen report changes nothing", async () => {
    const id = await enqueueText();
    const seen = JSON.stringify({ results: [{ messageId: id, seenAt: "2026-03-01T12:05:00.000+0000" }] });
    expect(await (await post(seen)).json()).toEqual({ received: 1, updated: 1 });
    const read = await messageRow(id);
    expect(read).toMatchObject({ status: "read", readAt: new Date("2026-03-01T12:05:00.000Z") });
    expect(await (await post(deliveryReport(id))).json()).toEqual({ received: 1, updated: 0 });
    expect(await messageRow(id)).toEqual(read);
  });
});
