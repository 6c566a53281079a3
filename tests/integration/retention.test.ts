import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, type Database } from "~/db/client.server";
import {
  advisorMessages,
  auditLog,
  chatGuests,
  chatMessages,
  chatRooms,
  clinicalRecordAccess,
  dataExports,
  jobRuns,
  leadHistory,
  leads,
  outbox,
  privacyRequests,
  rateLimits,
  sessions,
  verifications,
  whatsAppInboundMessages,
  whatsAppMessages,
} from "~/db/schema";
import { clinicDate } from "~/domain/clinic-time";
import {
  ANONYMISED_NAME,
  REDACTED_BODY,
  retentionCutoff,
  retentionRule,
  type RetentionKey,
} from "~/domain/retention";
import {
  RETENTION_JOB,
  retentionDryRun,
  runDailyRetention,
  runRetentionSweep,
} from "~/features/privacy/retention-sweep.server";
import { retentionCommand } from "~/startup/retention-command.server";
import { createTestUser, insertLead, type TestUser } from "../setup/factories";

// ADR 038: the retention sweep. For each table a row just past its period goes (or is anonymised) and one just
// inside stays; the access register is never touched; the dry run changes nothing; a day is swept once.

const MINUTE = 60_000;
/** The sweep's clock, fixed: rows are placed one minute either side of each rule's cut-off. */
const NOW = new Date();

function justPast(key: RetentionKey) {
  return new Date(retentionCutoff(retentionRule(key), NOW).getTime() - MINUTE);
}
function justInside(key: RetentionKey) {
  return new Date(retentionCutoff(retentionRule(key), NOW).getTime() + MINUTE);
}

let db: Database;
let patient: TestUser;

interface Fixture {
  past: string;
  inside: string;
}
const fixtures: Partial<Record<string, Fixture>> = {};
let leadPast: string;
let leadInside: string;
let inboundPast: string;
let registerOld: string;
let registerNew: string;

async function insertRoom(lastMessageAt: Date) {
  const [guest] = await db
    .insert(chatGuests)
    .values({ accountId: "clinica", browserKeyHash: randomUUID(), updatedAt: lastMessageAt })
    .returning({ id: chatGuests.id });
  const [room] = await db
    .insert(chatRooms)
    .values({ accountId: "clinica", guestId: guest!.id, agentId: "agente", lastMessageAt })
    .returning({ id: chatRooms.id });
  await db
    .insert(chatMessages)
    .values({ id: randomUUID(), roomId: room!.id, author: "guest", content: "Me duele una muela" });
  return room!.id;
}

async function insertWhatsApp(createdAt: Date, leadId: string | null = null) {
  const id = randomUUID();
  await db.insert(whatsAppMessages).values({
    id,
    purpose: "lead-welcome",
    leadId,
    toPhone: "56912345678",
    kind: "text",
    text: "Hola Ana, gracias por escribirnos sobre tu implante",
    createdAt,
  });
  return id;
}

async function insertOutbox(sentAt: Date) {
  const id = randomUUID();
  await db.insert(outbox).values({
    id,
    kind: "email",
    idempotencyKey: `retention-test:${id}`,
    payload: { to: "ana@example.cl", subject: "Tu cita", text: "Hola Ana" },
    status: "sent",
    sentAt,
    createdAt: sentAt,
  });
  return id;
}

async function insertSession(expiresAt: Date) {
  const id = randomUUID();
  await db
    .insert(sessions)
    .values({ id, token: randomUUID(), userId: patient.id, expiresAt, ipAddress: "1.2.3.4" });
  return id;
}

beforeAll(async () => {
  db = await getDb();
  patient = await createTestUser({ firstName: "Retención" });

  const [past, inside] = await Promise.all([
    insertLead({
      name: "Ana Pérez",
      email: "ana.retencion@example.cl",
      message: "Quiero un implante",
      createdAt: justPast("leads"),
    }),
    insertLead({ name: "Berta Soto", email: "berta.retencion@example.cl", createdAt: justInside("leads") }),
  ]);
  leadPast = past.id;
  leadInside = inside.id;
  await db
    .insert(leadHistory)
    .values({ leadId: leadPast, kind: "note", text: "Llamar a Ana el lunes", at: justPast("leads") });
  await insertWhatsApp(justPast("leads"), leadPast);

  fixtures.chat_rooms = {
    past: await insertRoom(justPast("chat_rooms")),
    inside: await insertRoom(justInside("chat_rooms")),
  };

  const advisor = await db
    .insert(advisorMessages)
    .values([
      {
        userId: patient.id,
        role: "user",
        content: "¿Cuánto cuesta?",
        createdAt: justPast("advisor_messages"),
      },
      {
        userId: patient.id,
        role: "user",
        content: "¿Y el blanqueamiento?",
        createdAt: justInside("advisor_messages"),
      },
    ])
    .returning({ id: advisorMessages.id });
  fixtures.advisor_messages = { past: advisor[0]!.id, inside: advisor[1]!.id };

  fixtures.whatsapp_bodies = {
    past: await insertWhatsApp(justPast("whatsapp_bodies")),
    inside: await insertWhatsApp(justInside("whatsapp_bodies")),
  };
  const inbound = await db
    .insert(whatsAppInboundMessages)
    .values([
      {
        providerMessageId: randomUUID(),
        fromPhone: "56911112222",
        toPhone: "56226543210",
        type: "TEXT",
        text: "Tengo una infección",
        contactName: "Ana",
        receivedAt: justPast("whatsapp_inbound_bodies"),
      },
      {
        providerMessageId: randomUUID(),
        fromPhone: "56911112222",
        toPhone: "56226543210",
        type: "TEXT",
        text: "Gracias",
        contactName: "Ana",
        receivedAt: justInside("whatsapp_inbound_bodies"),
      },
    ])
    .returning({ id: whatsAppInboundMessages.id });
  inboundPast = inbound[0]!.id;
  fixtures.whatsapp_inbound_bodies = { past: inbound[0]!.id, inside: inbound[1]!.id };

  fixtures.outbox_payloads = {
    past: await insertOutbox(justPast("outbox_payloads")),
    inside: await insertOutbox(justInside("outbox_payloads")),
  };
  fixtures.outbox_rows = {
    past: await insertOutbox(justPast("outbox_rows")),
    inside: await insertOutbox(justInside("outbox_rows")),
  };

  fixtures.sessions = {
    past: await insertSession(justPast("sessions")),
    inside: await insertSession(justInside("sessions")),
  };

  const verificationIds = [randomUUID(), randomUUID()];
  await db.insert(verifications).values([
    { id: verificationIds[0]!, identifier: "reset", value: "x", expiresAt: justPast("verifications") },
    { id: verificationIds[1]!, identifier: "reset", value: "y", expiresAt: justInside("verifications") },
  ]);
  fixtures.verifications = { past: verificationIds[0]!, inside: verificationIds[1]! };

  const rateKeys = [`retention-test:${randomUUID()}`, `retention-test:${randomUUID()}`];
  await db.insert(rateLimits).values([
    { key: rateKeys[0]!, count: 3, windowStart: justPast("rate_limits") },
    { key: rateKeys[1]!, count: 3, windowStart: justInside("rate_limits") },
  ]);
  fixtures.rate_limits = { past: rateKeys[0]!, inside: rateKeys[1]! };

  const audit = await db
    .insert(auditLog)
    .values([
      { actorId: patient.id, action: "test.old", createdAt: justPast("audit_log") },
      { actorId: patient.id, action: "test.recent", createdAt: justInside("audit_log") },
    ])
    .returning({ id: auditLog.id });
  fixtures.audit_log = { past: audit[0]!.id, inside: audit[1]!.id };

  const exportsRows = await db
    .insert(dataExports)
    .values([
      { userId: patient.id, status: "ready", readyAt: justPast("data_exports") },
      { userId: patient.id, status: "ready", readyAt: justInside("data_exports") },
    ])
    .returning({ id: dataExports.id });
  fixtures.data_exports = { past: exportsRows[0]!.id, inside: exportsRows[1]!.id };

  const requests = await db
    .insert(privacyRequests)
    .values([
      {
        submissionId: randomUUID(),
        right: "supresion",
        channel: "publico",
        email: "alguien@example.cl",
        status: "unverified",
        createdAt: justPast("privacy_requests_unverified"),
      },
      {
        submissionId: randomUUID(),
        right: "supresion",
        channel: "publico",
        email: "alguien@example.cl",
        status: "unverified",
        createdAt: justInside("privacy_requests_unverified"),
      },
    ])
    .returning({ id: privacyRequests.id });
  fixtures.privacy_requests_unverified = { past: requests[0]!.id, inside: requests[1]!.id };

  // The access register: one read older than its 15 years, one recent. Neither may ever go.
  const register = await db
    .insert(clinicalRecordAccess)
    .values([
      {
        actorId: patient.id,
        actorName: "Retención Test",
        actorRole: "paciente",
        rut: "12345678-5",
        resource: "paciente",
        outcome: "ok",
        ip: "1.2.3.4",
        createdAt: new Date(
          retentionCutoff(retentionRule("clinical_record_access"), NOW).getTime() - 86_400_000,
        ),
      },
      {
        actorId: patient.id,
        actorName: "Retención Test",
        actorRole: "paciente",
        rut: "12345678-5",
        resource: "citas",
        outcome: "ok",
        ip: "1.2.3.4",
      },
    ])
    .returning({ id: clinicalRecordAccess.id });
  registerOld = register[0]!.id;
  registerNew = register[1]!.id;
});
afterAll(closeDb);

const tableOf = {
  chat_rooms: [chatRooms, chatRooms.id],
  advisor_messages: [advisorMessages, advisorMessages.id],
  outbox_rows: [outbox, outbox.id],
  sessions: [sessions, sessions.id],
  verifications: [verifications, verifications.id],
  rate_limits: [rateLimits, rateLimits.key],
  audit_log: [auditLog, auditLog.id],
  data_exports: [dataExports, dataExports.id],
  privacy_requests_unverified: [privacyRequests, privacyRequests.id],
} as const;

async function present(key: keyof typeof tableOf, id: string): Promise<boolean> {
  const [table, column] = tableOf[key];
  const rows = await db
    .select({ n: sql<number>`count(*)` })
    .from(table)
    .where(eq(column, id));
  return Number(rows[0]?.n) > 0;
}

/** Everything the fixtures put in a state that a sweep would change, to compare before and after. */
async function snapshot() {
  const deleted: Record<string, boolean[]> = {};
  for (const key of Object.keys(tableOf) as (keyof typeof tableOf)[]) {
    const fixture = fixtures[key]!;
    deleted[key] = [await present(key, fixture.past), await present(key, fixture.inside)];
  }
  const leadRows = await db
    .select({ id: leads.id, name: leads.name, phone: leads.phone, email: leads.email })
    .from(leads)
    .where(inArray(leads.id, [leadPast, leadInside]));
  const bodies = await db
    .select({ id: whatsAppMessages.id, text: whatsAppMessages.text })
    .from(whatsAppMessages)
    .where(inArray(whatsAppMessages.id, [fixtures.whatsapp_bodies!.past, fixtures.whatsapp_bodies!.inside]));
  const payloads = await db
    .select({ id: outbox.id, payload: outbox.payload })
    .from(outbox)
    .where(inArray(outbox.id, [fixtures.outbox_payloads!.past, fixtures.outbox_payloads!.inside]));
  const register = await db.select({ id: clinicalRecordAccess.id }).from(clinicalRecordAccess);
  return { deleted, leadRows, bodies, payloads, register: register.map((row) => row.id).toSorted() };
}

describe("retention dry run", () => {
  it("counts what would go per table and changes nothing", async () => {
    const before = await snapshot();
    const counts = await retentionDryRun(db, NOW);
    const byKey = Object.fromEntries(counts.map((count) => [count.key, count.rows]));
    for (const key of [
      "leads",
      "chat_rooms",
      "advisor_messages",
      "whatsapp_bodies",
      "whatsapp_inbound_bodies",
      "outbox_payloads",
      "outbox_rows",
      "sessions",
      "verifications",
      "rate_limits",
      "audit_log",
      "data_exports",
      "privacy_requests_unverified",
    ]) {
      expect({ key, rows: byKey[key] ?? 0 }).not.toEqual({ key, rows: 0 });
    }
    // The register row older than 15 years is reported as past its minimum, and kept.
    expect(byKey.clinical_record_access).toBe(1);
    expect(await snapshot()).toEqual(before);
  });
});

describe("retention sweep", () => {
  it("removes or anonymises the rows just past their period and keeps those just inside", async () => {
    const counts = await runRetentionSweep(db, NOW, { batchSize: 2 });
    const byKey = Object.fromEntries(counts.map((count) => [count.key, count.rows]));
    for (const key of Object.keys(tableOf) as (keyof typeof tableOf)[]) {
      const fixture = fixtures[key]!;
      expect(await present(key, fixture.past), `${key}: the row past its period`).toBe(false);
      expect(await present(key, fixture.inside), `${key}: the row inside its period`).toBe(true);
      expect({ key, rows: byKey[key] ?? 0 }).not.toEqual({ key, rows: 0 });
    }

    // The chat room's messages went with it.
    const orphanMessages = await db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.roomId, fixtures.chat_rooms!.past));
    expect(orphanMessages).toEqual([]);

    // The old lead stays for the funnel, without anything that identifies the person; its history and messages go.
    const [anonymised] = await db.select().from(leads).where(eq(leads.id, leadPast));
    expect(anonymised).toMatchObject({
      name: ANONYMISED_NAME,
      phone: "",
      email: null,
      message: "",
      treatment: "implantes",
    });
    expect(await db.select().from(leadHistory).where(eq(leadHistory.leadId, leadPast))).toEqual([]);
    expect(await db.select().from(whatsAppMessages).where(eq(whatsAppMessages.leadId, leadPast))).toEqual([]);
    const [kept] = await db.select().from(leads).where(eq(leads.id, leadInside));
    expect(kept).toMatchObject({ name: "Berta Soto", email: "berta.retencion@example.cl" });

    // Message bodies: cleared when old, the delivery facts stay.
    const bodies = await db
      .select({ id: whatsAppMessages.id, text: whatsAppMessages.text, status: whatsAppMessages.status })
      .from(whatsAppMessages)
      .where(
        inArray(whatsAppMessages.id, [fixtures.whatsapp_bodies!.past, fixtures.whatsapp_bodies!.inside]),
      );
    expect(bodies.find((row) => row.id === fixtures.whatsapp_bodies!.past)).toMatchObject({
      text: REDACTED_BODY,
      status: "queued",
    });
    expect(bodies.find((row) => row.id === fixtures.whatsapp_bodies!.inside)?.text).toContain("Hola Ana");
    const [inbound] = await db
      .select()
      .from(whatsAppInboundMessages)
      .where(eq(whatsAppInboundMessages.id, inboundPast));
    expect(inbound).toMatchObject({ text: null, contactName: null, fromPhone: "56911112222" });
    const [recentInbound] = await db
      .select()
      .from(whatsAppInboundMessages)
      .where(eq(whatsAppInboundMessages.id, fixtures.whatsapp_inbound_bodies!.inside));
    expect(recentInbound?.text).toBe("Gracias");

    // Outbox: the payload of a row sent 30 days ago is cleared, the row stays until its 12 months.
    const payloads = await db
      .select({ id: outbox.id, payload: outbox.payload })
      .from(outbox)
      .where(inArray(outbox.id, [fixtures.outbox_payloads!.past, fixtures.outbox_payloads!.inside]));
    expect(payloads.find((row) => row.id === fixtures.outbox_payloads!.past)?.payload).toEqual({
      redacted: true,
    });
    expect(payloads.find((row) => row.id === fixtures.outbox_payloads!.inside)?.payload).toMatchObject({
      to: "ana@example.cl",
    });
  });

  it("never touches the clinical-record access register, even past its 15 years", async () => {
    const ids = (await db.select({ id: clinicalRecordAccess.id }).from(clinicalRecordAccess)).map(
      (row) => row.id,
    );
    expect(ids).toEqual(expect.arrayContaining([registerOld, registerNew]));
  });

  it("finds nothing left on a second sweep (anonymised rows are not anonymised again)", async () => {
    const counts = await runRetentionSweep(db, NOW);
    const changed = counts.filter((count) => count.action !== "keep" && count.rows > 0);
    expect(changed).toEqual([]);
  });
});

describe("the daily job", () => {
  it("claims its Santiago date once: a second claim of the same day does nothing", async () => {
    const day = new Date("2031-03-04T15:00:00.000Z");
    const stale = await insertSession(new Date(day.getTime() - 40 * 86_400_000));
    const [first, second] = await Promise.all([runDailyRetention(db, day), runDailyRetention(db, day)]);
    const claims = [first, second].filter((run) => run.claimed);
    expect(claims).toHaveLength(1);
    expect(first.period).toBe("2031-03-04");
    expect(await present("sessions", stale)).toBe(false);

    const [run] = await db
      .select()
      .from(jobRuns)
      .where(eq(jobRuns.period, clinicDate(day)));
    expect(run).toMatchObject({ job: RETENTION_JOB, period: "2031-03-04" });
    expect(run?.finishedAt).toBeInstanceOf(Date);
    expect((run!.summary as Record<string, number>).sessions).toBeGreaterThanOrEqual(1);

    // Later the same Santiago day (00:30 UTC is 21:30 the evening before in Santiago's summer): still claimed.
    const again = await runDailyRetention(db, new Date("2031-03-05T00:30:00.000Z"));
    expect(again).toMatchObject({ claimed: false, period: "2031-03-04" });
    // The next day is a new claim.
    const next = await runDailyRetention(db, new Date("2031-03-05T15:00:00.000Z"));
    expect(next).toMatchObject({ claimed: true, period: "2031-03-05" });
  });
});

// Last: the command closes the database when it ends, as a script's must.
describe("npm run retention", () => {
  it("--dry-run prints each table's count; an unknown option is refused before anything runs", async () => {
    let refused = "";
    expect(await retentionCommand(["--bogus"], (text) => (refused += text))).toBe(2);
    expect(refused).toContain("Opción desconocida: --bogus");
    await insertSession(new Date(NOW.getTime() - 40 * 86_400_000));
    let printed = "";
    expect(await retentionCommand(["--dry-run"], (text) => (printed += text))).toBe(0);
    expect(printed).toContain("Simulación (no se cambia nada)");
    expect(printed).toMatch(/^sessions\s+sessions\s+\S+\s+1\s+se eliminarían$/m);
    expect(printed).toMatch(/^clinical_record_access\s+clinical_record_access\s+\S+\s+1\s+conservadas/m);
  });
});
