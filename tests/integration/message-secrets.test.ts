import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appointments, outbox, treatmentsCatalog, users, whatsAppMessages } from "~/db/schema";
import { reminderDueAt } from "~/domain/reminder-schedule";
import type { MessageLogPage } from "~/features/messaging/whatsapp-log-dto";
import { createMemoryMockStore } from "~/integrations/dentalink/dentalink-mock";
import { postAs, requestAs, uniquePhone } from "../setup/clients";
import { freshPatient } from "../setup/dentalink-patients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { openPatientInbox, type PatientInbox } from "../setup/patient-inbox";

// Issue 19 item 1, as the attack: one-time codes and reminder links must reach the patient and nobody else. Staff
// (asesor, admin) read /funnel/mensajes after the code or the reminder went out; the secret is in neither the page,
// nor a whatsapp_messages row, nor the outbox row once delivered. The messages really go out: to the fake WhatsApp
// provider and the fake SMTP server, where the patient's phone and mailbox are.

const BASE_URL = "https://clinica.example";

// Patients of the Dentalink mock nobody else binds (a shared PostgreSQL database holds other files' bindings).
const store = createMemoryMockStore();

/** The app modules, imported only after the inbox pointed WHATSAPP_* and SMTP_URL at the fakes. */
async function importApp() {
  const [client, reader, dentalink, files, mock, recordRoute, messagesRoute, testUsers, reminders] =
    await Promise.all([
      import("~/db/client.server"),
      import("~/features/clinical-record/dentalink-reader.server"),
      import("~/integrations/dentalink/dentalink-client.server"),
      import("~/integrations/dentalink/dentalink-files.server"),
      import("~/integrations/dentalink/dentalink-mock"),
      import("~/routes/_patient/clinical-record"),
      import("~/routes/_staff/messages"),
      import("../setup/users"),
      import("~/features/reminders/reminder-service.server"),
    ]);
  const messaging = await import("~/features/messaging/whatsapp-outbox.server");
  reader.setDentalinkReader({
    client: dentalink.createDentalinkClient({ mock: { delays: mock.NO_MOCK_DELAYS, store } }),
    files: files.createDentalinkFileFetcher({ mode: "mock" }),
  });
  return {
    getDb: client.getDb,
    closeDb: client.closeDb,
    recordAction: recordRoute.action,
    messagesLoader: messagesRoute.loader,
    MessagesPage: messagesRoute.default,
    createTestUser: testUsers.createTestUser,
    queueDueReminders: reminders.queueDueReminders,
    enqueueWhatsApp: messaging.enqueueWhatsApp,
    resetReader: () => reader.setDentalinkReader(undefined),
  };
}

let inbox: PatientInbox;
let app: Awaited<ReturnType<typeof importApp>>;

beforeAll(async () => {
  inbox = await openPatientInbox("secrets");
  app = await importApp();
  await app.getDb();
});

afterAll(async () => {
  app?.resetReader();
  await inbox?.close();
  await app?.closeDb();
});

async function staff(role: "asesor" | "admin") {
  const user = await app.createTestUser({ roles: [role] });
  const db = await app.getDb();
  await db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, user.id));
  return user;
}

/** /funnel/mensajes as `user`: the loader's data and the HTML the page renders from it. */
async function messagesPage(cookie: string) {
  const path = "/funnel/mensajes";
  const loaded = await settle<MessageLogPage>(() => app.messagesLoader(routeArgs(requestAs(cookie, path))));
  expect(loaded.status).toBe(200);
  const Stub = createRoutesStub([{ id: "messages", path, Component: app.MessagesPage as never }]);
  const html = renderToString(
    createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { messages: loaded.body } } }),
  );
  return { data: JSON.stringify(loaded.body), html };
}

/** Every whatsapp_messages and outbox row, as text. */
async function storedRows() {
  const db = await app.getDb();
  const [messages, rows] = await Promise.all([db.select().from(whatsAppMessages), db.select().from(outbox)]);
  return { messages: JSON.stringify(messages), outbox: JSON.stringify(rows) };
}

/** The code as a whole number: never matched inside a longer run of digits (a phone number, a time). */
const asCode = (code: string) => new RegExp(`(?<!\\d)${code}(?!\\d)`);

describe("the Mi Ficha code", () => {
  it("the attack: after a code went out by WhatsApp, an asesor and an admin find it nowhere", async () => {
    const victim = await freshPatient(store, { mobile: true });
    const attacker = await app.createTestUser();
    const asked = await settle(() =>
      app.recordAction(
        routeArgs(postAs(attacker.cookie, "/paciente/ficha", { intent: "rut", rut: victim.rut })),
      ),
    );
    expect(asked.status).toBe(302);
    // While it waits, the code is sealed in the outbox row (the key is not in the database).
    const waiting = await storedRows();
    expect(waiting.outbox).toContain('"sealed":"v1.');
    await inbox.deliverAll();
    // The patient's phone got it.
    const code = inbox.lastTemplate("codigo_acceso_ficha", victim.phone)[0]!;
    expect(waiting.outbox).not.toMatch(asCode(code));
    expect(waiting.messages).not.toMatch(asCode(code));
    expect(code).toMatch(/^\d{6}$/);

    for (const user of [await staff("asesor"), await staff("admin")]) {
      const page = await messagesPage(user.cookie);
      expect(page.html).not.toMatch(asCode(code));
      expect(page.data).not.toMatch(asCode(code));
      expect(page.html).toContain("codigo_acceso_ficha");
      expect(page.html).toContain("[oculto]");
    }
    const stored = await storedRows();
    expect(stored.messages).not.toMatch(asCode(code));
    expect(stored.outbox).not.toMatch(asCode(code));
    // Once sent, not even the sealed copy stays.
    expect(stored.outbox).not.toContain('"sealed"');

    // And it is the real code: the account that asked binds with it.
    const bound = await settle(() =>
      app.recordAction(routeArgs(postAs(attacker.cookie, "/paciente/ficha", { intent: "code", code }))),
    );
    expect(bound).toMatchObject({ status: 302, location: "/paciente/ficha" });
  });

  it("the attack: an e-mailed code stays in no outbox row once sent", async () => {
    const patient = await freshPatient(store, { email: true });
    const user = await app.createTestUser();
    const asked = await settle(() =>
      app.recordAction(
        routeArgs(postAs(user.cookie, "/paciente/ficha", { intent: "rut", rut: patient.rut })),
      ),
    );
    expect(asked.status).toBe(302);
    await inbox.deliverAll();
    const mail = await inbox.smtp.waitForMail(patient.email!);
    const code = inbox.mailedCode(patient.email!);
    expect(mail.html).toContain(code);
    const stored = await storedRows();
    expect(stored.outbox).not.toMatch(asCode(code));
    expect(stored.outbox).not.toContain('"sealed"');
  });
});

describe("the reminder's links", () => {
  it("the attack: after a reminder went out, an asesor and an admin find neither link's token", async () => {
    const db = await app.getDb();
    const dentist = await app.createTestUser({ roles: ["dentista"] });
    const patient = await app.createTestUser({ firstName: "Ana" });
    await db
      .update(users)
      .set({ phone: uniquePhone(), whatsappOptInAt: new Date("2020-01-01T00:00:00Z") })
      .where(eq(users.id, patient.id));
    const [treatment] = await db.select({ id: treatmentsCatalog.id }).from(treatmentsCatalog).limit(1);
    const startsAt = new Date("2031-05-14T14:00:00Z");
    await db.insert(appointments).values({
      patientId: patient.id,
      dentistId: dentist.id,
      treatmentId: treatment!.id,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 45 * 60_000),
      status: "scheduled",
    });
    expect(await app.queueDueReminders(db, reminderDueAt(startsAt), { baseUrl: BASE_URL })).toBe(1);
    await inbox.deliverAll();
    const links = inbox.lastTemplate("recordatorio_cita").slice(3);
    const tokens = links.map((link) => /\/cita\/(?:confirmar|cancelar)\/([\w-]{43})$/.exec(link)?.[1]);
    expect(tokens.every((token) => token !== undefined)).toBe(true);

    for (const user of [await staff("asesor"), await staff("admin")]) {
      const page = await messagesPage(user.cookie);
      expect(page.html).toContain("recordatorio_cita");
      for (const token of tokens) {
        expect(page.html).not.toContain(token);
        expect(page.data).not.toContain(token);
      }
    }
    const stored = await storedRows();
    for (const token of tokens) {
      expect(stored.messages).not.toContain(token);
      expect(stored.outbox).not.toContain(token);
    }
    expect(stored.outbox).not.toContain('"sealed"');
  });

  it("fails a message whose secret cannot be opened, instead of sending it with [oculto]", async () => {
    const db = await app.getDb();
    const patient = await app.createTestUser({ firstName: "Luis" });
    const id = await db.transaction((tx) =>
      app.enqueueWhatsApp(tx, {
        purpose: "reminder",
        to: uniquePhone(),
        template: {
          name: "recordatorio_cita",
          placeholders: [
            "Luis",
            "lunes",
            "09:00",
            `${BASE_URL}/cita/confirmar/x`,
            `${BASE_URL}/cita/cancelar/y`,
          ],
        },
        userId: patient.id,
      }),
    );
    // Sealed with another key (AUTH_SECRET rotated): the same format, but it does not open.
    await db
      .update(outbox)
      .set({ payload: { purpose: "reminder", sealed: "v1.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA" } })
      .where(eq(outbox.id, id!));
    const before = inbox.fake.sent.length;
    await inbox.deliverAll();
    expect(inbox.fake.sent.length).toBe(before);
    const [row] = await db.select().from(outbox).where(eq(outbox.id, id!));
    expect(row).toMatchObject({ status: "failed", payload: { purpose: "reminder" } });
    const [message] = await db.select().from(whatsAppMessages).where(eq(whatsAppMessages.id, id!));
    expect(message).toMatchObject({ status: "failed", error: expect.stringMatching(/^MISSING_SECRET/) });
  });
});
