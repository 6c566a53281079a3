import { randomInt, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, type Database } from "~/db/client.server";
import {
  advisorMessages,
  appointmentActionTokens,
  appointmentReminders,
  callbackRequests,
  chatGuests,
  chatMessages,
  chatRooms,
  clinicalRecordAccess,
  clinicalRecordBindings,
  consents,
  dentalinkMockPatients,
  dentalinkPatientLinks,
  dentalinkSyncs,
  leadHistory,
  outbox,
  patientDepositFlags,
  privacyRequestEvents,
  privacyRequests,
  privacyRestrictions,
  rateLimits,
  verifications,
  whatsAppContacts,
  whatsAppInboundMessages,
  whatsAppMessages,
} from "~/db/schema";
import { addDays, clinicDate, clinicInstant } from "~/domain/clinic-time";
import { formatChileanPhone } from "~/domain/format";
import { erasurePlan, personalTables, type PersonalTableName } from "~/domain/privacy-data-map";
import { formatRut, rutCheckDigit } from "~/domain/rut";
import { downloadExport, requestExport, runDataExports } from "~/features/privacy/data-export-service.server";
import {
  countSubjectData,
  eraseSubjectData,
  resolveSubject,
  type ErasureReport,
} from "~/features/privacy/subject-data.server";
import { uniquePhone } from "../setup/clients";
import {
  createStaffMember,
  createTestUser,
  insertAppointment,
  insertChargeRow,
  insertLead,
  insertPaymentRow,
  insertRefund,
  type TestUser,
} from "../setup/factories";

/**
 * Access and erasure are complete (Ley 21.719 arts. 5, 7 and 9; ADR 037): a person with rows in as many tables as
 * practical gets every one of them in the export's datos.json; after the erasure no text column of any table the law
 * does not make the clinic keep holds their e-mail, phone, RUT or name; another person's data is untouched.
 */

const CLINIC = {
  name: "Río Clínica",
  privacyEmail: "privacidad@clinica.example",
  siteUrl: "https://clinica.example",
};

interface Person {
  user: TestUser;
  email: string;
  phone: string;
  phoneDigits: string;
  rut: string;
  firstName: string;
  lastName: string;
  /** The clinic date of the person's appointment. */
  appointmentDate: string;
}

let dentist: TestUser;

function randomRut(): string {
  const body = String(randomInt(10_000_000, 25_000_000));
  return `${body}-${rutCheckDigit(body)}`;
}

/** A name nobody else in the database has (letters only, as a name is). */
function uniqueSurname(): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return `Zañartu${Array.from({ length: 8 }, () => letters[randomInt(letters.length)]).join("")}`;
}

/** A patient with rows in every table a person's data reaches through the product. */
async function seedPerson(db: Database, daysAhead: number): Promise<Person> {
  const phone = uniquePhone();
  const phoneDigits = phone.replace(/\D/g, "");
  const rut = randomRut();
  const firstName = "Eleuteria";
  const lastName = uniqueSurname();
  const user = await createTestUser({
    firstName,
    columns: {
      lastName,
      phone,
      rut,
      address: `Avenida ${lastName} 123, Providencia`,
      emergencyContact: `Marta ${lastName}`,
      emergencyPhone: phone,
      whatsappOptInAt: new Date(),
    },
  });
  const email = user.email;
  const name = `${firstName} ${lastName}`;
  const now = new Date();

  await db.insert(verifications).values({
    id: randomUUID(),
    identifier: email,
    value: randomUUID(),
    expiresAt: new Date(now.getTime() + 3_600_000),
  });
  await db.insert(consents).values([
    { userId: user.id, purpose: "marketing", textVersion: "v1", channel: "perfil", givenAt: now },
    { email, purpose: "datos_contacto", textVersion: "v1", channel: "formulario_web", givenAt: now },
  ]);
  const byEmail = await insertLead({ email, name, message: `Soy ${name}, mi RUT es ${formatRut(rut)}` });
  const byPhone = await insertLead({ phone, name, message: `Escríbanme al ${formatChileanPhone(phone)}` });
  await db.insert(consents).values({
    leadId: byPhone.id,
    phone,
    purpose: "recordatorios_whatsapp",
    textVersion: "v1",
    channel: "asistente",
    givenAt: now,
  });
  await db.insert(leadHistory).values({
    leadId: byEmail.id,
    kind: "note",
    text: `Llamé a ${name} al ${phone}`,
    actorId: dentist.id,
    at: now,
  });
  await db.insert(dentalinkSyncs).values({
    submissionId: randomUUID(),
    leadId: byEmail.id,
    actorId: dentist.id,
    mode: "mock",
    request: { nombre: firstName, apellidos: lastName, email, celular: phone, rut },
    outcome: "success",
    message: `Paciente ${name} creado`,
  });
  const mockId = randomInt(100_000, 2_000_000_000);
  await db.insert(dentalinkMockPatients).values({
    id: mockId,
    record: { id: mockId, nombre: firstName, apellidos: lastName, email, celular: phone, rut },
  });

  // The chat: the signed-in guest and an anonymous one who left the same e-mail.
  const [guest] = await db
    .insert(chatGuests)
    .values({ accountId: "clinica", externalId: user.id, firstName, lastName, email, phone })
    .returning();
  const [anonymous] = await db
    .insert(chatGuests)
    .values({ accountId: "clinica", browserKeyHash: randomUUID(), firstName, lastName: "", email })
    .returning();
  for (const owner of [guest!, anonymous!]) {
    const [room] = await db
      .insert(chatRooms)
      .values({ accountId: "clinica", guestId: owner.id, agentId: "dentista-virtual" })
      .returning();
    await db.insert(chatMessages).values([
      { id: randomUUID(), roomId: room!.id, author: "guest", content: `Hola, soy ${name}, mi fono ${phone}` },
      {
        id: randomUUID(),
        roomId: room!.id,
        author: "agent",
        content: `Gracias ${firstName}, te escribimos a ${email}`,
      },
    ]);
  }
  await db.insert(advisorMessages).values({ userId: user.id, role: "user", content: `Me llamo ${name}` });

  // Care: an appointment with its reminder, its action link and its WhatsApp messages both ways. At 21:30 on the
  // clinic's clock, already the next day in UTC: the erasure report must give the clinic's date, whenever this runs.
  const appointmentDate = addDays(clinicDate(now), daysAhead);
  const appointment = await insertAppointment({
    patientId: user.id,
    dentistId: dentist.id,
    startsAt: clinicInstant(appointmentDate, "21:30"),
    notes: `Paciente ${name}`,
  });
  await db
    .insert(appointmentReminders)
    .values({ appointmentId: appointment.id, startsAt: appointment.startsAt });
  await db.insert(appointmentActionTokens).values({
    appointmentId: appointment.id,
    action: "confirm",
    tokenHash: randomUUID(),
    expiresAt: appointment.startsAt,
  });
  await db.insert(whatsAppMessages).values({
    id: randomUUID(),
    purpose: "reminder",
    userId: user.id,
    appointmentId: appointment.id,
    toPhone: phoneDigits,
    kind: "text",
    text: `Hola ${firstName} ${lastName}, te recordamos tu cita`,
  });
  await db.insert(whatsAppMessages).values({
    id: randomUUID(),
    purpose: "lead-welcome",
    leadId: byPhone.id,
    toPhone: phoneDigits,
    kind: "template",
    templateName: "bienvenida",
    templatePlaceholders: [name],
  });
  await db.insert(whatsAppInboundMessages).values({
    providerMessageId: randomUUID(),
    fromPhone: phoneDigits,
    toPhone: "56226543210",
    type: "text",
    text: `Confirmo, soy ${name}`,
    contactName: name,
    receivedAt: now,
    leadId: byPhone.id,
  });
  await db.insert(whatsAppContacts).values({ phone: phoneDigits, lastInboundAt: now, contactName: name });
  await db.insert(outbox).values({
    kind: "email",
    idempotencyKey: `test:${randomUUID()}`,
    payload: { to: email, subject: "Tu cita", text: `Hola ${name}, tu cita está confirmada.` },
  });
  await db.insert(rateLimits).values({ key: `callback:email:${email}`, count: 1, windowStart: now });
  await db.insert(callbackRequests).values({
    submissionId: randomUUID(),
    name,
    phone,
    email,
    preferredTime: "morning",
    reason: `Llamar a ${name}`,
  });

  // Payments (retained for tax law): a paid deposit with a refund.
  const charge = await insertChargeRow({ patientId: user.id, appointmentId: appointment.id, status: "paid" });
  const payment = await insertPaymentRow({ charge });
  await insertRefund(payment);
  await db.insert(patientDepositFlags).values({ patientId: user.id, reason: "Dos inasistencias" });

  // The clinical record: the binding of the RUT, and staff reads of the record (retained, Ley 20.584).
  const dentalinkPatientId = `dl-${randomUUID()}`;
  await db.insert(clinicalRecordBindings).values({ userId: user.id, dentalinkPatientId, rut });
  await db.insert(dentalinkPatientLinks).values({ userId: user.id, dentalinkPatientId, source: "binding" });
  await db.insert(clinicalRecordAccess).values([
    {
      actorId: dentist.id,
      actorName: "Dra. Rojas",
      actorRole: "dentista",
      rut,
      dentalinkPatientId,
      resource: "paciente",
      reason: "Control de rutina anual",
      outcome: "ok",
      ip: "203.0.113.9",
    },
    {
      actorId: user.id,
      actorName: name,
      actorRole: "paciente",
      rut,
      resource: "citas",
      outcome: "ok",
      ip: "203.0.113.10",
    },
  ]);

  // A privacy request with its history, and an objection.
  const [request] = await db
    .insert(privacyRequests)
    .values({
      submissionId: randomUUID(),
      right: "acceso",
      channel: "cuenta",
      userId: user.id,
      name,
      email,
      status: "received",
      verifiedVia: "session",
      receivedAt: now,
      dueAt: new Date(now.getTime() + 30 * 86_400_000),
    })
    .returning();
  await db
    .insert(privacyRequestEvents)
    .values({ requestId: request!.id, kind: "received", text: "Recibida" });
  await db
    .insert(privacyRestrictions)
    .values({ kind: "marketing", userId: user.id, email, requestId: request!.id });

  return { user, email, phone, phoneDigits, rut, firstName, lastName, appointmentDate };
}

/** Every table of the map this test gives the person rows in. */
const SEEDED: PersonalTableName[] = [
  "users",
  "sessions",
  "accounts",
  "verifications",
  "user_roles",
  "advisor_messages",
  "appointments",
  "appointment_reminders",
  "appointment_action_tokens",
  "audit_log",
  "chat_guests",
  "chat_rooms",
  "chat_messages",
  "clinical_record_bindings",
  "clinical_record_access",
  "leads",
  "lead_history",
  "dentalink_syncs",
  "dentalink_mock_patients",
  "dentalink_patient_links",
  "outbox",
  "charges",
  "payments",
  "payment_refunds",
  "patient_deposit_flags",
  "privacy_requests",
  "privacy_request_events",
  "consents",
  "privacy_restrictions",
  "data_exports",
  "callback_requests",
  "rate_limits",
  "whatsapp_messages",
  "whatsapp_contacts",
  "whatsapp_inbound_messages",
];

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Every (table, column) of schema public whose values are text, in any table of the database. */
async function textColumns(db: Database) {
  return rowsOf<{ table: string; column: string }>(
    await db.execute(sql`
      select c.table_name as "table", c.column_name as "column"
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
        and c.data_type in ('text', 'character varying', 'character', 'jsonb', 'json', 'ARRAY')
      order by 1, 2`),
  );
}

/** Where any needle appears (case-insensitive) in a text column of the tables given: "table.column: needle". */
async function findNeedles(db: Database, tables: Set<string>, needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const { table, column } of await textColumns(db)) {
    if (!tables.has(table)) continue;
    for (const needle of needles) {
      const [row] = rowsOf<{ n: number | string }>(
        await db.execute(
          sql`select count(*) as n from ${sql.identifier(table)} where position(${needle.toLowerCase()} in lower(${sql.identifier(column)}::text)) > 0`,
        ),
      );
      if (Number(row?.n ?? 0) > 0) hits.push(`${table}.${column}: ${needle}`);
    }
  }
  return hits;
}

function needlesOf(person: Person): string[] {
  return [
    person.email,
    person.phone,
    person.phoneDigits,
    formatChileanPhone(person.phone),
    person.rut,
    formatRut(person.rut),
    `${person.firstName} ${person.lastName}`,
    person.lastName,
  ];
}

let db: Database;
let person: Person;
let bystander: Person;

beforeAll(async () => {
  db = await getDb();
  dentist = await createStaffMember(["dentista"]);
  person = await seedPerson(db, 2);
  bystander = await seedPerson(db, 3);
});
afterAll(closeDb);

describe("the export holds every row about the person", () => {
  it("has rows from every table the person's data reaches, and nothing of another person", async () => {
    await requestExport(db, person.user.id, { roles: ["paciente"], ip: "203.0.113.7" });
    expect(await runDataExports(db, { clinic: CLINIC })).toBe(1);
    const [row] = rowsOf<{ id: string }>(
      await db.execute(sql`select id from data_exports where user_id = ${person.user.id}`),
    );
    const download = await downloadExport(db, person.user.id, row!.id);
    expect(download.kind).toBe("file");
    if (download.kind !== "file") return;
    const files = unzipSync(download.body);
    expect(Object.keys(files).toSorted()).toEqual(["LEEME.txt", "datos.json", "resumen.pdf"]);
    expect(strFromU8(files["resumen.pdf"]!.subarray(0, 5))).toBe("%PDF-");

    const json = strFromU8(files["datos.json"]!);
    const doc = JSON.parse(json) as {
      titular: { correo: string };
      tablas: Array<{
        tabla: string;
        categoria: string;
        filas: number;
        datos: Array<Record<string, unknown>>;
      }>;
    };
    expect(doc.titular.correo).toBe(person.email);
    const withRows = doc.tablas.filter((table) => table.filas > 0).map((table) => table.tabla);
    expect(withRows.toSorted()).toEqual(expect.arrayContaining(SEEDED.toSorted()));
    // Every table of the map is there, each with its Spanish label.
    expect(doc.tablas.map((table) => [table.tabla, table.categoria])).toEqual(
      Object.entries(personalTables).map(([table, entry]) => [table, entry.label]),
    );
    // Leads found both ways, the retained access register with its RUT.
    expect(doc.tablas.find((table) => table.tabla === "leads")!.filas).toBe(2);
    const access = doc.tablas.find((table) => table.tabla === "clinical_record_access")!;
    expect(access.datos.map((entry) => entry.rut)).toEqual([person.rut, person.rut]);
    for (const needle of needlesOf(bystander)) expect(json).not.toContain(needle);
    // Secrets stay out.
    expect(doc.tablas.find((table) => table.tabla === "accounts")!.datos[0]).not.toHaveProperty("password");
    expect(doc.tablas.find((table) => table.tabla === "data_exports")!.datos[0]).not.toHaveProperty("file");
  });
});

describe("the erasure leaves nothing about the person where the law does not make the clinic keep it", () => {
  let report: ErasureReport;
  let bystanderBefore: Awaited<ReturnType<typeof countSubjectData>>;
  /** Every table with a text column, except those the law makes the clinic keep. */
  let searched: Set<string>;
  let foundBefore: string[];

  beforeAll(async () => {
    const retained = new Set<string>(erasurePlan().retain);
    searched = new Set(
      (await textColumns(db)).map((column) => column.table).filter((table) => !retained.has(table)),
    );
    foundBefore = await findNeedles(db, searched, needlesOf(person));
    bystanderBefore = await countSubjectData(db, await resolveSubject(db, { userId: bystander.user.id }));
    report = await eraseSubjectData(db, await resolveSubject(db, { userId: person.user.id }));
  });

  it("finds the person's e-mail, phone, RUT or name in no text column of any table not retained", async () => {
    // The search finds them before: in the account, the leads, the chat, WhatsApp, the outbox, the contact forms…
    const tablesBefore = new Set(foundBefore.map((hit) => hit.split(".")[0]));
    expect([...tablesBefore]).toEqual(
      expect.arrayContaining([
        "users",
        "leads",
        "lead_history",
        "chat_guests",
        "chat_messages",
        "advisor_messages",
        "whatsapp_messages",
        "whatsapp_inbound_messages",
        "whatsapp_contacts",
        "outbox",
        "callback_requests",
        "rate_limits",
        "verifications",
        "consents",
        "dentalink_syncs",
        "dentalink_mock_patients",
        "clinical_record_bindings",
      ]),
    );
    expect(await findNeedles(db, searched, needlesOf(person))).toEqual([]);
    // The export's ZIP is bytes the search cannot read: it is gone with its row.
    const [exports] = rowsOf<{ n: number | string }>(
      await db.execute(sql`select count(*) as n from data_exports where user_id = ${person.user.id}`),
    );
    expect(Number(exports!.n)).toBe(0);
  });

  it("keeps only what the law requires, and says why and until when", async () => {
    expect(report.retained.map((entry) => entry.table).toSorted()).toEqual(
      [
        "appointments",
        "audit_log",
        "charges",
        "clinical_record_access",
        "payment_refunds",
        "payments",
        "privacy_request_events",
        "privacy_requests",
      ].toSorted(),
    );
    for (const entry of report.retained) {
      expect(entry.reason.length).toBeGreaterThan(20);
      expect(entry.until).toMatch(/^20\d\d-\d\d-\d\d$/);
    }
    const appointments = report.retained.find((entry) => entry.table === "appointments")!;
    // 15 years after the appointment's clinic date (a 29 February is kept until the 28th), not the year of "now".
    const [year, monthDay] = [Number(person.appointmentDate.slice(0, 4)), person.appointmentDate.slice(5)];
    expect(appointments.until).toBe(`${year + 15}-${monthDay === "02-29" ? "02-28" : monthDay}`);
    // The retained rows are still there, still found by the RUT.
    const [access] = rowsOf<{ n: number | string }>(
      await db.execute(sql`select count(*) as n from clinical_record_access where rut = ${person.rut}`),
    );
    expect(Number(access!.n)).toBe(2);
  });

  it("leaves another person's data untouched", async () => {
    const after = await countSubjectData(db, await resolveSubject(db, { userId: bystander.user.id }));
    expect(after).toEqual(bystanderBefore);
    expect(
      await findNeedles(db, new Set(["users", "leads", "chat_messages", "outbox"]), [bystander.email]),
    ).toEqual([
      "chat_messages.content: " + bystander.email,
      "leads.email: " + bystander.email,
      "leads.search_text: " + bystander.email,
      "outbox.payload: " + bystander.email,
      "users.email: " + bystander.email,
    ]);
  });
});
