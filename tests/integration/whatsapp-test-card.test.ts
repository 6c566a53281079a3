import { randomUUID } from "node:crypto";
import { eq, inArray, like } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outbox, whatsAppMessages } from "~/db/schema";
import type { TestSendStatus, WhatsAppTestSendResult } from "~/features/messaging/whatsapp-log-dto";
import type { WhatsAppFake } from "~/integrations/whatsapp/whatsapp-fake";
import { postAs, requestAs, uniquePhone } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createStaffMember, createTestUser, type TestUser } from "../setup/factories";
import { startWhatsAppHarness, type WhatsAppHarness } from "../setup/whatsapp-harness";

// The test dashboard's WhatsApp card: the action queues the spec's two messages for the current test lead
// through the outbox (never calling the provider itself) and answers their ids; the card polls their status from
// the staff resource route. Against the fake provider (Infobip's contract) and in test mode.

const API_KEY = "fake-whatsapp-key-test-card";
const SECRET = "webhook-secret-test-card-0123456789";
const CLINIC_NUMBER = "56987654321";
/** The hot scenario's phone (+56 9 8765 1234). */
const HOT_PHONE = "56987651234";

/** App modules, imported once the WHATSAPP_* variables are set (env() is read once and cached). */
async function importApp() {
  const [client, outboxModule, worker, reports, card, messages] = await Promise.all([
    import("~/db/client.server"),
    import("~/features/outbox/outbox.server"),
    import("~/jobs/outbox-worker.server"),
    import("~/routes/api/whatsapp-reports"),
    import("~/routes/_staff/test-whatsapp"),
    import("~/routes/_staff/messages"),
  ]);
  return {
    getDb: client.getDb,
    closeDb: client.closeDb,
    deliverDue: outboxModule.deliverDue,
    outboxHandlers: worker.outboxHandlers,
    reportsAction: reports.action,
    cardAction: card.action,
    cardLoader: card.loader,
    messagesLoader: messages.loader,
    MessagesPage: messages.default,
  };
}

let app: Awaited<ReturnType<typeof importApp>>;
let harness: WhatsAppHarness;
let fake: WhatsAppFake;
let asesor: TestUser;

beforeAll(async () => {
  harness = await startWhatsAppHarness({
    apiKey: API_KEY,
    secret: SECRET,
    sender: "56900000002",
    reportDelayMs: 100,
    webhooks: (_path, request) => app.reportsAction(routeArgs(request)) as Promise<Response>,
  });
  fake = harness.fake;
  app = await importApp();
  asesor = await createStaffMember(["asesor"]);
});

afterAll(async () => {
  await harness?.close();
  await app?.closeDb();
});

beforeEach(async () => {
  await deliverAll();
  await harness.reset();
});

async function send(fields: Record<string, string>, user: TestUser = asesor) {
  return settle<WhatsAppTestSendResult>(() =>
    app.cardAction(routeArgs(postAs(user.cookie, "/test/whatsapp", fields))),
  );
}

function scenario(key: string, testMode: "1" | "0", attemptKey = randomUUID()) {
  return { source: "scenario", scenario: key, testMode, attemptKey };
}

async function sentIds(fields: Record<string, string>): Promise<string[]> {
  const result = await send(fields);
  expect(result.status).toBe(200);
  if (!result.body.ok) throw new Error(`send refused: ${result.body.message}`);
  return result.body.data.ids;
}

async function status(ids: string[], user: TestUser = asesor) {
  return settle<TestSendStatus>(() =>
    app.cardLoader(routeArgs(requestAs(user.cookie, `/test/whatsapp?ids=${ids.join(",")}`))),
  );
}

async function rows(ids: string[]) {
  const db = await app.getDb();
  const found = await db.select().from(whatsAppMessages).where(inArray(whatsAppMessages.id, ids));
  return ids.map((id) => found.find((row) => row.id === id)!);
}

/** What the outbox worker does every 2 s, until nothing is due. */
async function deliverAll() {
  const db = await app.getDb();
  const handlers = { whatsapp: app.outboxHandlers().whatsapp! };
  while ((await app.deliverDue(db, handlers)) > 0) {
    // keep going
  }
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function testRowCount() {
  const db = await app.getDb();
  return db.$count(whatsAppMessages, eq(whatsAppMessages.purpose, "test"));
}

describe("the send action", () => {
  it("queues exactly two messages, the advisor notice then the patient's confirmation, through the outbox", async () => {
    const ids = await sentIds(scenario("hot", "1"));
    expect(ids).toHaveLength(2);
    const [advisor, patient] = await rows(ids);
    expect(advisor).toMatchObject({
      purpose: "test",
      toPhone: CLINIC_NUMBER,
      kind: "text",
      status: "queued",
    });
    expect(advisor!.text).toBe(
      [
        "Nuevo lead (Dashboard de Pruebas).",
        "Nombre: Carolina Vega.",
        "Teléfono: +56 9 8765 1234.",
        "Tratamiento: Implantes dentales.",
        "Nivel: Caliente (85 puntos).",
      ].join("\n"),
    );
    expect(patient).toMatchObject({ purpose: "test", toPhone: HOT_PHONE, kind: "text", status: "queued" });
    expect(patient!.text).toContain("Hola Carolina, recibimos tu consulta sobre Implantes dentales.");
    expect(patient!.text).toContain("15 minutos");

    const db = await app.getDb();
    const queued = await db.select().from(outbox).where(inArray(outbox.id, ids));
    expect(queued.map((row) => [row.kind, row.status, row.payload])).toEqual([
      ["whatsapp", "pending", { purpose: "test", testMode: true }],
      ["whatsapp", "pending", { purpose: "test", testMode: true }],
    ]);
    // Nothing was sent by the action itself.
    expect(fake.requests).toHaveLength(0);

    const polled = await status(ids);
    expect(polled.status).toBe(200);
    expect(polled.body.progress).toBe("sending");
    expect(polled.body.messages.map((message) => message.status)).toEqual(["queued", "queued"]);

    // The worker delivers them in that order.
    await deliverAll();
    expect((await rows(ids)).map((row) => row.status)).toEqual(["accepted", "accepted"]);
  });

  it("answers the same two messages for a repeated attempt (a double click) and new ones for a retry", async () => {
    const attemptKey = randomUUID();
    const before = await testRowCount();
    const [first, second] = await Promise.all([
      sentIds(scenario("warm", "1", attemptKey)),
      sentIds(scenario("warm", "1", attemptKey)),
    ]);
    expect(second).toEqual(first);
    expect(await testRowCount()).toBe(before + 2);
    const db = await app.getDb();
    expect(await db.$count(outbox, like(outbox.idempotencyKey, `%:${attemptKey}:%`))).toBe(2);

    const retry = await sentIds(scenario("warm", "1"));
    expect(retry).not.toEqual(first);
    expect(await testRowCount()).toBe(before + 4);
  });

  it("refuses an attempt key that is not a uuid and an unknown scenario", async () => {
    const badKey = await send({ ...scenario("hot", "1"), attemptKey: "1; drop table outbox" });
    expect(badKey.status).toBe(400);
    const unknown = await send(scenario("tibio", "1"));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ ok: false, message: "Escenario desconocido." });
  });
});

describe("test mode", () => {
  it("sends nothing to the provider and records both messages as accepted in test mode", async () => {
    const ids = await sentIds(scenario("cold", "1"));
    await deliverAll();
    expect(fake.requests).toHaveLength(0);
    for (const row of await rows(ids)) {
      expect(row).toMatchObject({ status: "accepted", testMode: true });
      expect(row.providerMessageId).toMatch(/^test-/);
    }
    const polled = await status(ids);
    expect(polled.body.progress).toBe("success");
    // The API log: newest first, these two among the latest 10, endpoint and messageId, never the key.
    const logged = polled.body.log.filter((entry) => ids.includes(entry.id));
    expect(logged).toHaveLength(2);
    for (const entry of logged) {
      // Neither number wrote to the clinic in the last 24 hours: the window is closed, so the template goes.
      expect(entry).toMatchObject({
        endpoint: "/whatsapp/1/message/template",
        status: "accepted",
        testMode: true,
      });
      expect(entry.messageId).toMatch(/^test-/);
    }
    expect(polled.body.log.length).toBeLessThanOrEqual(10);
    expect(JSON.stringify(polled.body)).not.toContain(API_KEY);
  });

  it("fails a landline test lead with the reason (shown as 'Error de prueba: …') and queues nothing", async () => {
    const before = await testRowCount();
    const result = await send({
      source: "custom",
      name: "Fijo Pérez",
      phone: "+56 2 2345 6789",
      email: "",
      age: "",
      treatment: "implantes",
      urgency: "inmediato",
      budget: "alto",
      message: "",
      testMode: "1",
      attemptKey: randomUUID(),
    });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      ok: false,
      message:
        "el teléfono +56 2 2345 6789 del lead de prueba es un número fijo y WhatsApp solo llega a celulares.",
    });
    expect(await testRowCount()).toBe(before);
  });

  it("keeps the API log at the latest 10 calls", async () => {
    for (let round = 0; round < 6; round++) await sentIds(scenario("hot", "1"));
    await deliverAll();
    const polled = await status([]);
    expect(polled.body.log).toHaveLength(10);
    const times = polled.body.log.map((entry) => entry.time.iso);
    expect(times.toSorted().toReversed()).toEqual(times);
  });
});

describe("against the provider (the fake)", () => {
  it("sends both, accepted, then delivered after the provider's report", async () => {
    const ids = await sentIds(scenario("hot", "0"));
    // One lane for the two, as a real lead's notices (ADR 020): the advisor's goes out first even with the outbox
    // delivering in parallel (ADR 047).
    const db = await app.getDb();
    const lanes = await db
      .select({ id: outbox.id, key: outbox.orderingKey })
      .from(outbox)
      .where(inArray(outbox.id, ids));
    expect(lanes).toHaveLength(2);
    expect(lanes[0]!.key).not.toBeNull();
    expect(lanes[1]!.key).toBe(lanes[0]!.key);
    await deliverAll();
    expect(fake.sent.map((message) => [message.to, message.messageId])).toEqual([
      [CLINIC_NUMBER, ids[0]],
      [HOT_PHONE, ids[1]],
    ]);
    const polled = await status(ids);
    expect(polled.body.progress).toBe("success");
    expect(polled.body.messages.every((message) => !message.testMode)).toBe(true);

    const delivered = await waitFor(
      () => rows(ids),
      (found) => found.every((row) => row.status === "delivered" || row.status === "read"),
    );
    expect(delivered.every((row) => row.deliveredAt instanceof Date)).toBe(true);
  });

  it("shows a failure injected at the provider as an error, with the reason", async () => {
    // Only the patient's number fails (the fake's `to` filter): the advisor notice still goes out.
    fake.failWith({ status: 400, to: HOT_PHONE });
    const ids = await sentIds(scenario("hot", "0"));
    await deliverAll();
    const [advisor, patient] = await rows(ids);
    expect(advisor).toMatchObject({ status: "accepted" });
    expect(patient).toMatchObject({ status: "failed" });
    const polled = await status(ids);
    expect(polled.body.progress).toBe("error");
    expect(polled.body.messages[1]).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/BAD_REQUEST/),
    });
    const entry = polled.body.log.find((item) => item.id === ids[1]);
    expect(entry).toMatchObject({ statusLabel: "Fallido", tone: "bad" });

    // 'Reintentar' is a new attempt: new messages, sent this time.
    const retry = await sentIds(scenario("hot", "0"));
    expect(retry).not.toContain(ids[1]);
    await deliverAll();
    expect((await status(retry)).body.progress).toBe("success");
  });

  it("reports a transient failure as retrying while the outbox backs off", async () => {
    const ids = await sentIds(scenario("warm", "0"));
    // Every attempt of every message (the client's first try and its two retries; the messages go out side by side)
    // meets a 503, so each is left to the outbox's backoff.
    fake.failWith({ status: 503, times: 3 * ids.length });
    await deliverAll();
    const polled = await status(ids);
    expect(polled.body.progress).toBe("sending");
    expect(polled.body.messages.find((message) => message.retryingAttempt !== null)).toMatchObject({
      status: "queued",
      retryingAttempt: 1,
    });
    // Out of the way of the next tests (its backoff would bring it back to the fake in a few seconds).
    const db = await app.getDb();
    await db.update(outbox).set({ status: "failed" }).where(inArray(outbox.id, ids));
  });
});

describe("abuse", () => {
  it("refuses a staff member's 31st send within 10 minutes", async () => {
    const busy = await createStaffMember(["asesor"]);
    for (let round = 0; round < 30; round++) {
      expect((await send(scenario("cold", "1"), busy)).status).toBe(200);
    }
    const refused = await send(scenario("cold", "1"), busy);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.body).toMatchObject({ ok: false, code: "RATE_LIMITED" });
  });
});

describe("the attack: not staff", () => {
  it("refuses a patient and a dentist on the action and the status resource, and sends nothing", async () => {
    const patient = await createTestUser();
    const dentist = await createTestUser({ roles: ["dentista"] });
    const own = await sentIds(scenario("hot", "1"));
    const before = await testRowCount();
    for (const user of [patient, dentist]) {
      const posted = await send(scenario("hot", "0"), user);
      expect(posted).toMatchObject({ status: 403, thrown: true });
      const read = await status(own, user);
      expect(read).toMatchObject({ status: 403, thrown: true });
    }
    const anonymous = await settle(() =>
      app.cardAction(routeArgs(postAs(undefined, "/test/whatsapp", scenario("hot", "0")))),
    );
    expect(anonymous.status).toBe(302);
    expect(await testRowCount()).toBe(before);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("a lead name with markup", () => {
  it("is sent as text and shown as text on /funnel/mensajes", async () => {
    const phone = uniquePhone();
    const ids = await sentIds({
      source: "custom",
      name: "<script>alert(1)</script> Ana",
      phone,
      email: "",
      age: "",
      treatment: "estetica",
      urgency: "1-mes",
      budget: "medio",
      message: "",
      testMode: "1",
      attemptKey: randomUUID(),
    });
    const [advisor] = await rows(ids);
    expect(advisor!.text).toContain("Nombre: <script>alert(1)</script> Ana.");

    const path = `/funnel/mensajes?proposito=test&telefono=${encodeURIComponent(phone)}`;
    const loaded = await settle(() => app.messagesLoader(routeArgs(requestAs(asesor.cookie, path))));
    expect(loaded.status).toBe(200);
    const Stub = createRoutesStub([
      { id: "messages", path: "/funnel/mensajes", Component: app.MessagesPage as never },
    ]);
    const html = renderToString(
      createElement(Stub, {
        initialEntries: [path],
        hydrationData: { loaderData: { messages: loaded.body } },
      }),
    );
    // The patient's confirmation greets the lead by the first word of the name.
    expect(html).toContain("Hola &lt;script&gt;alert(1)&lt;/script&gt;, recibimos tu consulta");
    expect(html).not.toContain("<script>alert(1)");
  });
});
