import { and, eq, sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consents, outbox, rateLimits, users, verifications, whatsAppMessages } from "~/db/schema";
import { reminderDueAt } from "~/domain/reminder-schedule";
import type { MessageLogPage } from "~/features/messaging/whatsapp-log-dto";
import { createMemoryMockStore } from "~/integrations/dentalink/dentalink-mock-store";
import {
  clientForm,
  clientGet,
  postAs,
  randomIp,
  requestAs,
  uniqueEmail,
  uniquePhone,
} from "../setup/clients";
import { CookieJar } from "../setup/cookie-jar";
import { freshPatient } from "../setup/dentalink-patients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { openPatientInbox, type PatientInbox } from "../setup/patient-inbox";

// ADR 029, as the attack: one-time codes and reminder links must reach the patient and nobody else. Staff
// (asesor, admin) read /funnel/mensajes after the code or the reminder went out; the secret is in neither the page,
// nor a whatsapp_messages row, nor the outbox row once delivered. The messages really go out: to the fake WhatsApp
// provider and the fake SMTP server, where the patient's phone and mailbox are.

const BASE_URL = "https://clinica.example";

// Patients of the Dentalink mock that no other test of this file binds.
const store = createMemoryMockStore();

/** The app modules, imported only after the inbox pointed WHATSAPP_* and SMTP_URL at the fakes. */
async function importApp() {
  const [
    client,
    reader,
    dentalink,
    files,
    mock,
    recordRoute,
    messagesRoute,
    factories,
    reminders,
    authRoute,
    forgotRoute,
    resetRoute,
    betterAuthRoute,
    session,
  ] = await Promise.all([
    import("~/db/client.server"),
    import("~/features/clinical-record/dentalink-reader.server"),
    import("~/integrations/dentalink/dentalink-client.server"),
    import("~/integrations/dentalink/dentalink-files.server"),
    import("~/integrations/dentalink/dentalink-mock"),
    import("~/routes/_patient/clinical-record"),
    import("~/routes/_staff/messages"),
    import("../setup/factories"),
    import("~/features/reminders/reminder-service.server"),
    import("~/routes/_auth/auth"),
    import("~/routes/_auth/forgot-password"),
    import("~/routes/_auth/reset-password"),
    import("~/routes/api/auth"),
    import("~/lib/auth/session.server"),
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
    createTestUser: factories.createTestUser,
    createStaffMember: factories.createStaffMember,
    createWhatsAppPatient: factories.createWhatsAppPatient,
    insertAppointment: factories.insertAppointment,
    queueDueReminders: reminders.queueDueReminders,
    enqueueWhatsApp: messaging.enqueueWhatsApp,
    resetReader: () => reader.setDentalinkReader(undefined),
    authAction: authRoute.action,
    forgotPasswordAction: forgotRoute.action,
    resetPasswordAction: resetRoute.action,
    betterAuthLoader: betterAuthRoute.loader,
    loadSessionUser: session.loadSessionUser,
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

const staff = (role: "asesor" | "admin") => app.createStaffMember([role]);

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

/** Every whatsapp_messages and outbox row, as text; `delivered`: the outbox rows no longer waiting. */
async function storedRows() {
  const db = await app.getDb();
  const [messages, rows] = await Promise.all([db.select().from(whatsAppMessages), db.select().from(outbox)]);
  return {
    messages: JSON.stringify(messages),
    outbox: JSON.stringify(rows),
    delivered: JSON.stringify(rows.filter((row) => row.status !== "pending")),
  };
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
    expect(stored.delivered).not.toContain('"sealed"');

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
    expect(stored.delivered).not.toContain('"sealed"');
  });
});

describe("the reminder's links", () => {
  it("the attack: after a reminder went out, an asesor and an admin find none of its links' tokens", async () => {
    const db = await app.getDb();
    const dentist = await app.createTestUser({ roles: ["dentista"] });
    const patient = await app.createWhatsAppPatient("Ana");
    const startsAt = new Date("2031-05-14T14:00:00Z");
    await app.insertAppointment({ patientId: patient.id, dentistId: dentist.id, startsAt, minutes: 45 });
    expect(await app.queueDueReminders(db, reminderDueAt(startsAt), { baseUrl: BASE_URL })).toBe(1);
    await inbox.deliverAll();
    const links = inbox.lastTemplate("recordatorio_cita").slice(3);
    // 'Confirmar', 'Cancelar' and 'Necesito hablar con alguien' (ADR 039).
    const tokens = links.map((link) => /\/cita\/(?:confirmar|cancelar|hablar)\/([\w-]{43})$/.exec(link)?.[1]);
    expect(tokens).toHaveLength(3);
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
    expect(stored.delivered).not.toContain('"sealed"');
  });

  it("fails a message whose secret cannot be opened, instead of sending it with [oculto]", async () => {
    const db = await app.getDb();
    const patient = await app.createTestUser({ firstName: "Luis" });
    // The reminder's consent is in the ledger (ADR 037): the secret, not the consent, is what stops this one.
    await db.insert(consents).values({
      userId: patient.id,
      purpose: "recordatorios_whatsapp",
      textVersion: "v1",
      channel: "perfil",
      givenAt: new Date(),
    });
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

// The account e-mails (password reset, address verification, sign-in step-up code) carry a single-use or signed
// token: read from the mailbox, it must be in no outbox row (payload or key) once the mail went out, and still work.

/** Delivers the outbox, then the newest mail to `to` whose subject starts with `subject`, as the mailbox got it. */
async function deliveredMail(to: string, subject: string) {
  await inbox.deliverAll();
  const mail = inbox.smtp.messages
    .filter((item) => item.to.includes(to) && item.subject.startsWith(subject))
    .at(-1);
  if (!mail) throw new Error(`no "${subject}" mail to ${to}`);
  // Its row keeps the address and the subject, nothing else (not even the sealed body).
  const db = await app.getDb();
  const rows = await db
    .select({ payload: outbox.payload, status: outbox.status })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'to' = ${to}`));
  const row = rows.find((item) => String(item.payload.subject).startsWith(subject));
  expect(row).toEqual({ status: "sent", payload: { to, subject: mail.subject } });
  return mail;
}

/** The outbox rows (all of them, every column, as text) where `secret` appears: named by id and key prefix. */
async function outboxRowsHolding(secret: string | RegExp) {
  const db = await app.getDb();
  const rows = await db.select().from(outbox);
  return rows
    .filter((row) => {
      const text = JSON.stringify(row);
      return typeof secret === "string" ? text.includes(secret) : secret.test(text);
    })
    .map((row) => `${row.id} ${row.idempotencyKey.split(":")[0]}`);
}

const signIn = (fields: Record<string, string>, jar?: CookieJar) =>
  settle(() =>
    app.authAction(
      routeArgs(clientForm("/auth", fields, { ip: randomIp(), cookie: jar?.header() || undefined })),
    ),
  );

describe("account e-mails", () => {
  it("the attack: a password-reset link stays in no outbox row once sent, and still resets the password", async () => {
    const user = await app.createTestUser();
    const requested = await settle(() =>
      app.forgotPasswordAction(routeArgs(clientForm("/auth/recuperar", { email: user.email }))),
    );
    expect(requested.body).toEqual({ ok: true });
    const mail = await deliveredMail(user.email, "Restablece tu contraseña");
    const link = /(https?:\/\/\S+\/api\/auth\/reset-password\/[^\s?]+)/.exec(mail.text)?.[1];
    const token = link ? new URL(link).pathname.split("/").pop()! : "";
    expect(token.length).toBeGreaterThanOrEqual(20);
    expect(mail.html).toContain(token);
    expect(await outboxRowsHolding(token)).toEqual([]);
    // Nor does Better Auth's own record of the link hold it: a database reader cannot reset the password.
    const db = await app.getDb();
    expect(JSON.stringify(await db.select().from(verifications))).not.toContain(token);

    const newPassword = "restablecida-2026";
    const reset = await settle(() =>
      app.resetPasswordAction(
        routeArgs(clientForm("/auth/restablecer", { token, password: newPassword, confirm: newPassword })),
      ),
    );
    expect(reset).toMatchObject({ status: 200, body: { ok: true } });
    expect((await signIn({ intent: "signin", email: user.email, password: newPassword })).status).toBe(302);
  });

  it("the attack: an address-verification link stays in no outbox row once sent, and still verifies", async () => {
    const email = uniqueEmail("verifica-secreto");
    const signedUp = await settle(() =>
      app.authAction(
        routeArgs(
          clientForm("/auth", {
            intent: "signup",
            firstName: "Inés",
            lastName: "Secreto",
            email,
            password: "clave-secreta-2026",
          }),
        ),
      ),
    );
    expect(signedUp.status).toBe(302);
    const mail = await deliveredMail(email, "Confirma tu correo");
    const link = /Confirmar mi correo: (\S+)/.exec(mail.text)?.[1];
    const token = link ? new URL(link).searchParams.get("token") : null;
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await outboxRowsHolding(token!)).toEqual([]);
    // Nor the part that makes a JWT unique (its header is the same for every link).
    expect(await outboxRowsHolding(token!.split(".")[2]!)).toEqual([]);

    const followed = await settle(() => app.betterAuthLoader(routeArgs(clientGet(link!))));
    expect(followed.status).toBe(302);
    const db = await app.getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user?.emailVerified).toBe(true);
  });

  it("the attack: a sign-in step-up code stays in no outbox row once sent, and still signs in", async () => {
    const user = await app.createTestUser({ firstName: "Olga" });
    // The account is past its failure limit (the spray itself is sign-in-step-up.test.ts's subject).
    const db = await app.getDb();
    await db
      .insert(rateLimits)
      .values({ key: `signin-fail:account:${user.email}`, count: 100, windowStart: new Date() });
    const jar = new CookieJar();
    const stepUp = await signIn({ intent: "signin", email: user.email, password: user.password }, jar);
    expect(stepUp.body).toMatchObject({ step: "email-code" });
    jar.store(stepUp.headers);
    const mail = await deliveredMail(user.email, "Tu código para ingresar");
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(code);
    expect(await outboxRowsHolding(asCode(code!))).toEqual([]);

    const signedIn = await signIn({ intent: "step-up", code: code! }, jar);
    expect(signedIn.status).toBe(302);
    jar.store(signedIn.headers);
    expect((await app.loadSessionUser(clientGet("/paciente", { cookie: jar.header() })))?.id).toBe(user.id);
  });
});
