import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  consents,
  leadHistory,
  leads,
  outbox,
  whatsAppContacts,
  whatsAppInboundMessages,
  whatsAppMessages,
} from "~/db/schema";
import type { WhatsAppFake } from "~/integrations/whatsapp/whatsapp-fake";
import { WHATSAPP_WEBHOOK_SECRET_HEADER } from "~/integrations/whatsapp/whatsapp-schemas";
import { clientForm, uniquePhone } from "../setup/clients";
import { routeArgs, unwrap } from "../setup/route-args";
import {
  INBOUND_PATH,
  startWhatsAppHarness,
  webhookRequest,
  type WebhookPath,
  type WhatsAppHarness,
  type WhatsAppRelay,
} from "../setup/whatsapp-harness";

// ADR 020: the inbound WhatsApp webhook (a person writing to the clinic: their 24-hour window, a lead or its
// history), the window choosing text or template when a message is sent, and the delivery order of a lead's two
// messages, against the fake provider over HTTP with its posts relayed to the real route actions.

const API_KEY = "fake-whatsapp-key-inbound";
const SECRET = "webhook-secret-inbound-0123456789";
const SENDER = "56900000002";
/** CLINIC_MOBILE's default (config/clinic.ts), where advisor notices go. */
const CLINIC_NUMBER = "56987654321";
const DAY_MS = 24 * 60 * 60 * 1000;

async function importApp() {
  const [client, outboxModule, messaging, inboundRoute, reportsRoute, home] = await Promise.all([
    import("~/db/client.server"),
    import("~/features/outbox/outbox.server"),
    import("~/features/messaging/whatsapp-outbox.server"),
    import("~/routes/api/whatsapp-inbound"),
    import("~/routes/api/whatsapp-reports"),
    import("~/routes/_public/home"),
  ]);
  return {
    getDb: client.getDb,
    closeDb: client.closeDb,
    deliverDue: outboxModule.deliverDue,
    enqueueWhatsApp: messaging.enqueueWhatsApp,
    createHandler: messaging.createWhatsAppOutboxHandler,
    inboundAction: inboundRoute.action,
    reportsAction: reportsRoute.action,
    homeAction: home.action,
  };
}

let app: Awaited<ReturnType<typeof importApp>>;

/** A provider's POST to one of the webhooks: no Origin, no cookie, the secret header unless told otherwise. */
async function post(
  path: WebhookPath,
  body: BodyInit,
  headers: Record<string, string> = { [WHATSAPP_WEBHOOK_SECRET_HEADER]: SECRET },
  method = "POST",
) {
  return deliver(path, webhookRequest(path, body, headers, method));
}

/** Where the fake's posts arrive: the route's action for the path. */
async function deliver(path: WebhookPath, request: Request) {
  const action = path === INBOUND_PATH ? app.inboundAction : app.reportsAction;
  return (await action(routeArgs(request))) as Response;
}

let harness: WhatsAppHarness;
let fake: WhatsAppFake;
let relay: WhatsAppRelay;

beforeAll(async () => {
  harness = await startWhatsAppHarness({
    apiKey: API_KEY,
    secret: SECRET,
    sender: SENDER,
    reportDelayMs: 50,
    webhooks: deliver,
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

const digits = (phone: string) => phone.replace(/\D/g, "");
const LONG_TEXT = "Hola, perdí una muela hace un año y quiero saber cuánto cuesta un implante en la clínica.";

async function counts() {
  const db = await app.getDb();
  return {
    leads: await db.$count(leads),
    history: await db.$count(leadHistory),
    inbound: await db.$count(whatsAppInboundMessages),
    contacts: await db.$count(whatsAppContacts),
    messages: await db.$count(whatsAppMessages),
    outbox: await db.$count(outbox),
  };
}

async function leadsOf(phone: string) {
  const db = await app.getDb();
  return db.select().from(leads).where(eq(leads.phone, phone));
}

async function historyOf(leadId: string) {
  const db = await app.getDb();
  return db.select().from(leadHistory).where(eq(leadHistory.leadId, leadId)).orderBy(asc(leadHistory.at));
}

async function messagesOfLead(leadId: string) {
  const db = await app.getDb();
  return db
    .select()
    .from(whatsAppMessages)
    .where(eq(whatsAppMessages.leadId, leadId))
    .orderBy(asc(whatsAppMessages.purpose));
}

async function contactOf(phone: string) {
  const db = await app.getDb();
  const [row] = await db
    .select()
    .from(whatsAppContacts)
    .where(eq(whatsAppContacts.phone, digits(phone)));
  return row;
}

/** A person writes to the clinic through the fake, which posts Infobip's inbound body to the route. */
async function inbound(from: string, text: string, contactName?: string) {
  const posted = await fake.simulateInbound({ from: digits(from), text, contactName });
  expect(posted.status).toBe(200);
  return posted;
}

function inboundBody(overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    results: [
      {
        from: digits(uniquePhone()),
        to: SENDER,
        integrationType: "WHATSAPP",
        receivedAt: "2026-03-01T12:00:00.000+0000",
        messageId: randomUUID(),
        message: { type: "TEXT", text: "Hola" },
        contact: { name: "Ana" },
        ...overrides,
      },
    ],
    messageCount: 1,
    pendingMessageCount: 0,
  });
}

/** One text message of a batch, from `from`. */
function textFrom(from: string) {
  return {
    from,
    to: SENDER,
    integrationType: "WHATSAPP",
    receivedAt: "2026-03-01T12:00:00.000+0000",
    messageId: randomUUID(),
    message: { type: "TEXT", text: `Hola desde ${from}` },
  };
}

describe("POST /api/whatsapp/inbound: the guard", () => {
  it("answers 401 without the right secret and changes nothing", async () => {
    const before = await counts();
    const body = inboundBody();
    const refused: Array<Record<string, string>> = [
      {},
      { [WHATSAPP_WEBHOOK_SECRET_HEADER]: "wrong" },
      { [WHATSAPP_WEBHOOK_SECRET_HEADER]: `${SECRET}x` },
      { [WHATSAPP_WEBHOOK_SECRET_HEADER]: SECRET.slice(0, -1) },
    ];
    for (const headers of refused) {
      const answer = await post("/api/whatsapp/inbound", body, headers);
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ detail: "Missing or wrong webhook secret" });
    }
    expect(await counts()).toEqual(before);
  });

  it("answers 400 to a body that is not Infobip's inbound shape, and 405 to another method", async () => {
    const before = await counts();
    for (const body of [
      "not json",
      "{}",
      JSON.stringify({ results: [{ from: "56911112222", message: { type: "TEXT", text: "x" } }] }),
      inboundBody({ integrationType: "SMS" }),
      inboundBody({ receivedAt: "yesterday" }),
      inboundBody({ message: { type: "TEXT" } }),
    ]) {
      const answer = await post("/api/whatsapp/inbound", body);
      expect(answer.status).toBe(400);
    }
    const get = await post("/api/whatsapp/inbound", "", undefined, "GET");
    expect(get.status).toBe(405);
    expect(await counts()).toEqual(before);
  });

  it("answers 413 to a body over the limit, declared or streamed, before reading it all", async () => {
    const before = await counts();
    const big = inboundBody({ padding: "a".repeat(300 * 1024) });
    expect((await post("/api/whatsapp/inbound", big)).status).toBe(413);
    const encoder = new TextEncoder();
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        // 64 KB chunks without end: the route must stop reading past the limit.
        controller.enqueue(encoder.encode("a".repeat(64 * 1024)));
      },
    });
    expect((await post("/api/whatsapp/inbound", stream)).status).toBe(413);
    expect(pulled).toBeLessThan(10);
    expect(await counts()).toEqual(before);
  });
});

describe("inbound messages", () => {
  it("makes an unknown number a new scored lead (source whatsapp) with its history and its two messages", async () => {
    const phone = uniquePhone();
    const before = await counts();
    const posted = await inbound(phone, LONG_TEXT, "Ana Rojas");

    const [lead, ...others] = await leadsOf(phone);
    expect(others).toEqual([]);
    expect(lead).toMatchObject({
      name: "Ana Rojas",
      phone,
      email: null,
      source: "whatsapp",
      message: LONG_TEXT,
      treatment: "evaluacion",
      urgency: "evaluando",
      budget: "consultar",
      // The normal rules: only the detailed message scores (10).
      score: 10,
      level: "cold",
      reasons: ["Consulta detallada"],
      status: "new",
    });
    expect(lead!.consentAt).toBeInstanceOf(Date);
    expect((await historyOf(lead!.id)).map((entry) => [entry.kind, entry.text])).toEqual([
      ["whatsapp-inbound", LONG_TEXT],
    ]);

    const db = await app.getDb();
    const [stored] = await db
      .select()
      .from(whatsAppInboundMessages)
      .where(eq(whatsAppInboundMessages.providerMessageId, posted.messageId));
    expect(stored).toMatchObject({
      fromPhone: digits(phone),
      toPhone: "56900000000",
      type: "TEXT",
      text: LONG_TEXT,
      contactName: "Ana Rojas",
      leadId: lead!.id,
    });
    const contact = await contactOf(phone);
    expect(contact?.contactName).toBe("Ana Rojas");
    expect(Math.abs(contact!.lastInboundAt.getTime() - Date.now())).toBeLessThan(60_000);

    // Advisor notice to the clinic, then the patient's confirmation, each with its text and template.
    const messages = await messagesOfLead(lead!.id);
    expect(messages.map((m) => [m.purpose, m.toPhone, m.status, m.templateName])).toEqual([
      ["lead-advisor", CLINIC_NUMBER, "queued", "lead_aviso_asesor"],
      ["lead-patient", digits(phone), "queued", "lead_confirmacion_paciente"],
    ]);
    expect(messages[0]!.text).toContain("Nuevo lead (WhatsApp).\nNombre: Ana Rojas.");
    expect(messages[1]!.text).toMatch(/^Hola Ana, recibimos tu consulta sobre Evaluación general\./);

    const after = await counts();
    expect({ ...after, contacts: after.contacts - before.contacts }).toMatchObject({
      leads: before.leads + 1,
      history: before.history + 1,
      inbound: before.inbound + 1,
      contacts: 1,
      messages: before.messages + 2,
      outbox: before.outbox + 2,
    });
  });

  it("changes nothing when the same body is posted again (the provider retries)", async () => {
    const phone = uniquePhone();
    await inbound(phone, "Hola, ¿tienen hora esta semana?", "Berta");
    const [body] = relay.bodiesTo(INBOUND_PATH);
    const contactBefore = await contactOf(phone);
    const before = await counts();
    for (let replay = 0; replay < 2; replay++) {
      const answer = await post("/api/whatsapp/inbound", body!);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ received: 1, recorded: 0, leadsCreated: 0, skipped: 0 });
    }
    expect(await counts()).toEqual(before);
    expect(await contactOf(phone)).toEqual(contactBefore);
    expect(await leadsOf(phone)).toHaveLength(1);
  });

  it("adds a known lead's message to its history, with no new lead and no new messages", async () => {
    // A lead from the landing form; the person then writes by WhatsApp.
    const phone = uniquePhone();
    const form = await app.homeAction(
      routeArgs(
        clientForm("/?index", {
          submissionId: randomUUID(),
          name: "Carla Díaz",
          phone,
          email: "carla@example.com",
          treatment: "ortodoncia",
          urgency: "1-mes",
          budget: "medio",
          message: "Quiero frenos.",
          consent: "on",
        }),
      ),
    );
    expect(unwrap(form).body).toMatchObject({ ok: true });
    const [lead] = await leadsOf(phone);
    const before = await counts();

    await inbound(phone, "Hola, soy Carla, ¿me pueden llamar después de las 18?", "Carla");
    await inbound(phone, "Gracias", "Carla");

    expect(await leadsOf(phone)).toEqual([lead]);
    expect((await historyOf(lead!.id)).map((entry) => entry.text)).toEqual([
      "Hola, soy Carla, ¿me pueden llamar después de las 18?",
      "Gracias",
    ]);
    const after = await counts();
    expect(after.messages).toBe(before.messages);
    expect(after.outbox).toBe(before.outbox);
    expect(after.inbound).toBe(before.inbound + 2);
  });

  it("files several messages of one new number in one body under one lead", async () => {
    const from = digits(uniquePhone());
    const result = (text: string, second: number) => ({
      from,
      to: SENDER,
      integrationType: "WHATSAPP",
      receivedAt: `2026-03-01T12:00:0${second}.000+0000`,
      messageId: randomUUID(),
      message: { type: "TEXT", text },
      // WhatsApp had no profile name: absent, or null.
      ...(second === 2 ? { contact: null } : {}),
    });
    const answer = await post(
      "/api/whatsapp/inbound",
      JSON.stringify({ results: [result("Hola", 1), result("¿Atienden sábados?", 2)], messageCount: 2 }),
    );
    expect(await answer.json()).toEqual({ received: 2, recorded: 2, leadsCreated: 1, skipped: 0 });
    const [lead, ...others] = await leadsOf(`+${from}`);
    expect(others).toEqual([]);
    // No profile name: a Spanish placeholder.
    expect(lead!.name).toBe("Paciente de WhatsApp");
    expect((await historyOf(lead!.id)).map((entry) => entry.text)).toEqual(["Hola", "¿Atienden sábados?"]);
    expect(await messagesOfLead(lead!.id)).toHaveLength(2);
  });

  it("takes the senders' locks in sorted order, whatever the payload's order: [Y, X] and [X, Y] at once do not deadlock", async () => {
    const [x, y] = [digits(uniquePhone()), digits(uniquePhone())].toSorted() as [string, string];
    const [{ receiveWhatsAppInbound }, { parseWhatsAppInbound }] = await Promise.all([
      import("~/features/leads/whatsapp-inbound-service.server"),
      import("~/features/messaging/whatsapp-inbound.server"),
    ]);
    const batch = (...senders: string[]) => {
      const parsed = parseWhatsAppInbound({
        results: senders.map(textFrom),
        messageCount: senders.length,
      });
      if (!parsed) throw new Error("not an inbound body");
      return parsed;
    };
    // The order the transaction takes its contact locks in, seen through the statements it runs.
    const db = await app.getDb();
    const dialect = new PgDialect();
    const locks: string[] = [];
    const watched = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== "transaction") return Reflect.get(target, property, receiver);
        return (run: (tx: typeof db) => Promise<unknown>) =>
          target.transaction((tx) =>
            run(
              new Proxy(tx, {
                get(inner, name, innerReceiver) {
                  if (name !== "execute") return Reflect.get(inner, name, innerReceiver);
                  return (query: SQL) => {
                    const { sql: text, params } = dialect.sqlToQuery(query);
                    if (text.includes("pg_advisory_xact_lock")) locks.push(String(params[0]));
                    return inner.execute(query);
                  };
                },
              }) as unknown as typeof db,
            ),
          );
      },
    });
    await receiveWhatsAppInbound(batch(y, x), { db: watched });
    const firstTaken = [...new Set(locks)];
    expect(firstTaken).toEqual([`lead-contact:${x}`, `lead-contact:${y}`]);

    // Two webhooks at once with the same two new senders in opposite orders: both commit, one lead per number.
    const [u, v] = [digits(uniquePhone()), digits(uniquePhone())];
    const outcomes = await Promise.all([
      receiveWhatsAppInbound(batch(u, v)),
      receiveWhatsAppInbound(batch(v, u)),
    ]);
    expect(outcomes.map((outcome) => outcome.recorded)).toEqual([2, 2]);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.leadsCreated, 0)).toBe(2);
    expect(await leadsOf(`+${u}`)).toHaveLength(1);
    expect(await leadsOf(`+${v}`)).toHaveLength(1);
    expect(await historyOf((await leadsOf(`+${u}`))[0]!.id)).toHaveLength(2);
  });

  it("records a message without text (an image) and keeps the later time of two out of order", async () => {
    const from = digits(uniquePhone());
    const image = inboundBody({
      from,
      receivedAt: "2026-03-01T12:00:00.000+0000",
      message: { type: "IMAGE", url: "https://example.com/x.jpg" },
    });
    expect(await (await post("/api/whatsapp/inbound", image)).json()).toMatchObject({ leadsCreated: 1 });
    const [lead] = await leadsOf(`+${from}`);
    expect(lead!.message).toBe("(mensaje de WhatsApp sin texto: image)");
    const older = inboundBody({ from, receivedAt: "2026-03-01T11:00:00.000+0000" });
    await post("/api/whatsapp/inbound", older);
    expect((await contactOf(from))?.lastInboundAt.toISOString()).toBe("2026-03-01T12:00:00.000Z");
  });

  it("does not make the clinic's own number a lead, but opens its window", async () => {
    const before = await counts();
    await inbound(CLINIC_NUMBER, "Recibido, llamo al lead ahora.");
    expect(await leadsOf(`+${CLINIC_NUMBER}`)).toEqual([]);
    const after = await counts();
    expect(after.leads).toBe(before.leads);
    expect(after.messages).toBe(before.messages);
    expect(after.inbound).toBe(before.inbound + 1);
    expect(Date.now() - (await contactOf(CLINIC_NUMBER))!.lastInboundAt.getTime()).toBeLessThan(60_000);
  });
});

type Handler = ReturnType<Awaited<ReturnType<typeof importApp>>["createHandler"]>;

async function outboxRow(id: string) {
  const db = await app.getDb();
  const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
  return row!;
}

async function messageRow(id: string) {
  const db = await app.getDb();
  const [row] = await db.select().from(whatsAppMessages).where(eq(whatsAppMessages.id, id));
  return row!;
}

/**
 * Makes `ids` the only due WhatsApp rows, all due at one instant, and delivers them (`beforeDelivery` runs just
 * before the worker claims them).
 */
async function deliverOnly(
  ids: string[],
  handler: Handler = app.createHandler(),
  beforeDelivery?: () => Promise<unknown>,
) {
  const db = await app.getDb();
  await db
    .update(outbox)
    // Parked rows also leave their lane (domain/outbox-order.ts): an earlier row of the same recipient would
    // otherwise hold the chosen ones back, as a row waiting for its retry does.
    .set({ nextAttemptAt: new Date("2999-01-01T00:00:00Z"), orderingKey: null })
    .where(and(eq(outbox.kind, "whatsapp"), eq(outbox.status, "pending"), notInArray(outbox.id, ids)));
  await db
    .update(outbox)
    .set({ nextAttemptAt: new Date("2000-01-01T00:00:00Z") })
    .where(inArray(outbox.id, ids));
  await beforeDelivery?.();
  await app.deliverDue(db, { whatsapp: handler });
  return Promise.all(ids.map(outboxRow));
}

const TEMPLATE = { name: "lead_confirmacion_paciente", placeholders: ["Ana", "x", "y", "z", "w"] };

async function enqueue(to: string, content: { text?: string; template?: typeof TEMPLATE }, purpose = "test") {
  const db = await app.getDb();
  const id = await db.transaction((tx) =>
    app.enqueueWhatsApp(tx, { purpose, to, ...content } as Parameters<typeof app.enqueueWhatsApp>[1]),
  );
  return id!;
}

describe("the 24-hour window, decided when the message is sent", () => {
  it("sends the text to someone who wrote a moment ago", async () => {
    const phone = uniquePhone();
    await inbound(phone, "Hola");
    const id = await enqueue(phone, { text: "Claro, te esperamos el martes.", template: TEMPLATE });
    const [row] = await deliverOnly([id]);
    expect(row).toMatchObject({ status: "sent" });
    expect(fake.sent).toEqual([
      expect.objectContaining({ endpoint: "text", messageId: id, text: "Claro, te esperamos el martes." }),
    ]);
    // The fake's delivery and seen reports follow 50 ms later: reading the row before they land was a race (it
    // failed once on a busy machine), so wait for them and read the status they leave.
    await fake.idle();
    expect(await messageRow(id)).toMatchObject({ kind: "text", status: "read" });
  });

  it("sends the template to someone who never wrote", async () => {
    const id = await enqueue(uniquePhone(), { text: "Texto libre", template: TEMPLATE });
    await deliverOnly([id]);
    expect(fake.sent).toEqual([
      expect.objectContaining({
        endpoint: "template",
        messageId: id,
        template: "lead_confirmacion_paciente",
        placeholders: TEMPLATE.placeholders,
      }),
    ]);
    expect(fake.sent[0]?.text).toBeUndefined();
    expect((await messageRow(id)).kind).toBe("template");
  });

  it("sends the template once the last inbound message is 24 hours old (a later clock)", async () => {
    const phone = uniquePhone();
    await inbound(phone, "Hola");
    const id = await enqueue(phone, { text: "Texto libre", template: TEMPLATE });
    await deliverOnly([id], app.createHandler({ now: () => new Date(Date.now() + DAY_MS + 1_000) }));
    expect(fake.sent.map((message) => message.endpoint)).toEqual(["template"]);
    expect((await messageRow(id)).kind).toBe("template");

    // The same clock an hour earlier is still inside the window.
    const other = await enqueue(phone, { text: "Texto libre", template: TEMPLATE });
    await deliverOnly([other], app.createHandler({ now: () => new Date(Date.now() + DAY_MS - 3_600_000) }));
    expect(fake.sent.map((message) => message.endpoint)).toEqual(["template", "text"]);
  });

  it("fails a text-only message outside the window for good, with the reason and no call", async () => {
    const id = await enqueue(uniquePhone(), { text: "Solo texto" });
    const [row] = await deliverOnly([id]);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row!.lastError).toMatch(/^OUTSIDE_CUSTOMER_CARE_WINDOW: /);
    expect(fake.requests).toEqual([]);
    const message = await messageRow(id);
    expect(message).toMatchObject({ status: "failed", kind: "text", providerMessageId: null });
    expect(message.error).toMatch(/^OUTSIDE_CUSTOMER_CARE_WINDOW: free text needs a message/);
    expect(message.failedAt).toBeInstanceOf(Date);
  });

  it("sends a template-only message (a reminder) as the template, also inside the window", async () => {
    const phone = uniquePhone();
    await inbound(phone, "Hola");
    // A reminder goes only with the consent in the ledger (ADR 037).
    await (await app.getDb()).insert(consents).values({
      phone,
      purpose: "recordatorios_whatsapp",
      textVersion: "v1",
      channel: "perfil",
      givenAt: new Date(),
    });
    const id = await enqueue(phone, { template: TEMPLATE }, "reminder");
    await deliverOnly([id]);
    expect(fake.sent.map((message) => [message.endpoint, message.template])).toEqual([
      ["template", "lead_confirmacion_paciente"],
    ]);
  });
});

describe("delivery order", () => {
  it("delivers a new lead's advisor notice before the patient's confirmation", async () => {
    const db = await app.getDb();
    // The clinic's number last wrote two days ago (another test here may have opened its window).
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
    await db
      .insert(whatsAppContacts)
      .values({ phone: CLINIC_NUMBER, lastInboundAt: twoDaysAgo })
      .onConflictDoUpdate({ target: whatsAppContacts.phone, set: { lastInboundAt: twoDaysAgo } });
    const phone = uniquePhone();
    await inbound(phone, "Hola, quiero evaluarme", "Dora");
    const [lead] = await leadsOf(phone);
    const [advisor, patient] = await messagesOfLead(lead!.id);
    expect([advisor?.purpose, patient?.purpose]).toEqual(["lead-advisor", "lead-patient"]);
    // Both rows are due at the same instant; rewriting the advisor's row moves it behind the patient's on disk, so
    // only the insertion order (not where the rows happen to lie) can put it first.
    const [first, second] = await db
      .select({ id: outbox.id, seq: outbox.seq, due: outbox.nextAttemptAt })
      .from(outbox)
      .where(inArray(outbox.id, [advisor!.id, patient!.id]))
      .orderBy(asc(outbox.seq));
    expect([first?.id, second?.id]).toEqual([advisor!.id, patient!.id]);
    expect(first?.due).toEqual(second?.due);
    await deliverOnly([advisor!.id, patient!.id], app.createHandler(), () =>
      db
        .update(outbox)
        .set({ payload: sql`${outbox.payload}` })
        .where(eq(outbox.id, advisor!.id)),
    );
    expect(fake.sent.map((message) => message.messageId)).toEqual([advisor!.id, patient!.id]);
    // The patient wrote a moment ago: text; the clinic's number has not written: its template.
    expect(fake.sent.map((message) => [message.to, message.endpoint])).toEqual([
      [CLINIC_NUMBER, "template"],
      [digits(phone), "text"],
    ]);
  });
});
