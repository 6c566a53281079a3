import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { auditLog, dentalinkMockPatients, dentalinkSyncs, leadHistory, leads } from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import {
  buildDentalinkClient,
  createDatabaseMockStore,
  type DentalinkSettings,
} from "~/features/dentalink-sync/dentalink-settings.server";
import { runSync } from "~/features/dentalink-sync/dentalink-sync-service.server";
import type { SyncActionData } from "~/features/dentalink-sync/sync-dto";
import { SYNC_REQUIRED_MESSAGES } from "~/features/dentalink-sync/sync-options";
import { syncActionSchema, type SyncActionInput } from "~/features/dentalink-sync/sync-schema";
import { startDentalinkFake, type DentalinkFake } from "~/integrations/dentalink/dentalink-fake";
import { loader as mockPageLoader } from "~/routes/_staff/dentalink-mock";
import { action as funnelAction, loader as funnelLoader } from "~/routes/_staff/funnel";
import { postAs, requestAs, uniquePhone } from "../setup/clients";
import { routeArgs, unwrap } from "../setup/route-args";
import { createStaffMember, createTestUser, type TestUser } from "../setup/factories";

// The sync tab's service against the fake Dentalink over HTTP (ADR 019): the spec's Spanish error texts per error
// class, search before create, the idempotent double submit, 409, the circuit breaker, mock mode kept in our
// database, and the route's guard and lead scheduling. No mocks: the fake answers as Dentalink does.

const API_KEY = `key-${randomUUID()}`;
let fake: DentalinkFake;
let asesor: TestUser;
let patient: TestUser;

afterAll(async () => {
  await fake?.close();
  await closeDb();
});

beforeAll(async () => {
  fake = await startDentalinkFake({ apiKey: API_KEY });
  [asesor, patient] = await Promise.all([
    createStaffMember(["asesor"], { firstName: "Javiera" }),
    createTestUser({ firstName: "Paula" }),
  ]);
});

beforeEach(() => {
  fake.reset();
});

const today = clinicDate(new Date());
let slotDay = 10;

/** A fresh free slot per test (the fake keeps its appointments until reset; mock mode keeps them in the DB). */
function nextSlotDate() {
  slotDay += 1;
  return addDays(today, slotDay);
}

function liveSettings(overrides: Partial<DentalinkSettings> = {}): DentalinkSettings {
  return { apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 5_000, mockDelays: false, ...overrides };
}

function liveClient(overrides: Partial<DentalinkSettings> = {}, now?: () => number) {
  return buildDentalinkClient(liveSettings(overrides), {
    client: { retries: 1, backoff: { baseMs: 5, maxMs: 10 }, now },
  });
}

function form(overrides: Partial<Record<string, string>> = {}): SyncActionInput {
  return syncActionSchema.parse({
    intent: "dentalink-sync",
    submissionId: randomUUID(),
    leadId: "",
    firstName: "Rosa",
    lastName: "Díaz",
    rut: "",
    email: `rosa-${randomUUID()}@correo.example`,
    phone: uniquePhone(),
    birthDate: "1990-04-02",
    treatmentType: "limpieza",
    appointmentDate: nextSlotDate(),
    appointmentTime: "10:30",
    dentistId: "dr-vidal",
    medicalHistory: "Alergia a la penicilina",
    ...overrides,
  });
}

function actor() {
  return { id: asesor.id, roles: ["asesor"], ip: "203.0.113.7" };
}

async function syncRow(syncId: string) {
  const db = await getDb();
  const [row] = await db.select().from(dentalinkSyncs).where(eq(dentalinkSyncs.id, syncId));
  return row;
}

const apiCalls = (method: string, path: string) =>
  fake.state.calls.filter((call) => call.method === method && call.path.startsWith(`/api/v1${path}`));

describe("a sync against Dentalink", () => {
  it("creates the patient and the appointment, stores the sync without the medical history, and audits it", async () => {
    const db = await getDb();
    const input = form({ rut: "15.555.555-6" });
    const result = await runSync(db, { client: liveClient(), form: input, actor: actor() });
    expect(result).toMatchObject({
      success: true,
      patientReused: false,
      message: "Paciente y cita creados en Dentalink.",
      errors: [],
    });
    expect(fake.state.patients).toEqual([
      expect.objectContaining({ id: Number(result.patientId), rut: "15555555-6", nombre: "Rosa" }),
    ]);
    expect(fake.state.appointments).toEqual([
      expect.objectContaining({
        id: Number(result.appointmentId),
        id_dentista: "dr-vidal",
        fecha: input.appointmentDate,
        hora_inicio: "10:30",
        comentarios: expect.stringContaining("Tratamiento: Limpieza dental"),
      }),
    ]);
    // Searched by RUT, e-mail and phone before creating (Dentalink does not de-duplicate).
    expect(apiCalls("GET", "/pacientes?q=")).toHaveLength(3);

    const row = await syncRow(result.syncId);
    expect(row).toMatchObject({
      outcome: "success",
      actorId: asesor.id,
      mode: "live",
      patientId: result.patientId,
      appointmentId: result.appointmentId,
      errors: [],
    });
    expect(row?.request).toMatchObject({ hasMedicalHistory: true, treatmentType: "limpieza" });
    expect(JSON.stringify(row?.request)).not.toContain("penicilina");
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "dentalink.sync"), eq(auditLog.actorId, asesor.id)));
    expect(entry?.details).toMatchObject({ syncId: result.syncId, outcome: "success" });
  });

  it("finds an existing patient by RUT, then by e-mail, and reuses it (saying so)", async () => {
    const db = await getDb();
    const byRut = await runSync(db, {
      client: liveClient(),
      form: form({ rut: "12.345.678-5" }),
      actor: actor(),
    });
    expect(byRut).toMatchObject({ success: true, patientId: "1001", patientReused: true, matchedBy: "rut" });
    expect(byRut.message).toContain("encontrado por RUT");
    const byEmail = await runSync(db, {
      client: liveClient(),
      form: form({ email: "martin.rivas@correo.example" }),
      actor: actor(),
    });
    expect(byEmail).toMatchObject({ patientId: "1002", patientReused: true, matchedBy: "email" });
    expect(fake.state.patients).toEqual([]);
    expect(apiCalls("POST", "/pacientes")).toHaveLength(0);
  });

  it("creates one patient and one appointment for a double submit (same submission id)", async () => {
    const db = await getDb();
    fake.setLatency(30);
    const client = liveClient({ timeoutMs: 2_000 });
    const input = form();
    const [first, second] = await Promise.all([
      runSync(db, { client, form: input, actor: actor() }),
      runSync(db, { client, form: input, actor: actor() }),
    ]);
    expect(first.success).toBe(true);
    expect(second).toEqual(first);
    expect(fake.state.patients).toHaveLength(1);
    expect(fake.state.appointments).toHaveLength(1);
    const again = await runSync(db, { client, form: input, actor: actor() });
    expect(again).toEqual(first);
    expect(fake.state.appointments).toHaveLength(1);
    const rows = await db
      .select()
      .from(dentalinkSyncs)
      .where(eq(dentalinkSyncs.submissionId, input.submissionId));
    expect(rows).toHaveLength(1);
  });

  it("answers 'Datos duplicados' when the slot is taken (409)", async () => {
    const db = await getDb();
    const date = nextSlotDate();
    const first = await runSync(db, {
      client: liveClient(),
      form: form({ appointmentDate: date }),
      actor: actor(),
    });
    expect(first.success).toBe(true);
    const taken = await runSync(db, {
      client: liveClient(),
      form: form({ appointmentDate: date }),
      actor: actor(),
    });
    expect(taken).toMatchObject({
      success: false,
      message: "Error al sincronizar con Dentalink",
      errors: ["Datos duplicados"],
      appointmentId: null,
    });
    expect(apiCalls("POST", "/citas").at(-1)?.status).toBe(409);
    expect(await syncRow(taken.syncId)).toMatchObject({
      outcome: "failed",
      errors: ["Datos duplicados"],
      errorDetail: expect.stringContaining("SLOT_TAKEN 409"),
    });
  });

  it("answers 'Error de conexión' for 5xx and timeouts, 'Error de sistema' for anything else", async () => {
    const db = await getDb();
    fake.failNext(2, 503);
    expect(await runSync(db, { client: liveClient(), form: form(), actor: actor() })).toMatchObject({
      success: false,
      message: "Error al sincronizar con Dentalink",
      errors: ["Error de conexión"],
    });

    // A hang is a timeout whatever its length: a short one keeps the test short (the others wait up to 5 s, so that a
    // loaded machine's slow answer is not taken for one).
    fake.hang(2);
    expect(
      await runSync(db, { client: liveClient({ timeoutMs: 400 }), form: form(), actor: actor() }),
    ).toMatchObject({
      message: "Error al sincronizar con Dentalink",
      errors: ["Error de conexión"],
    });

    const wrongKey = buildDentalinkClient(liveSettings({ apiKey: "otra-clave-invalida" }));
    const refused = await runSync(db, { client: wrongKey, form: form(), actor: actor() });
    expect(refused).toMatchObject({
      success: false,
      message: "Error inesperado al procesar la solicitud",
      errors: ["Error de sistema"],
    });
    expect(await syncRow(refused.syncId)).toMatchObject({ errorDetail: expect.stringContaining("401") });
  });

  it("opens the circuit after 5 failures (fails fast, says 'Error de conexión') and closes it after 30 s", async () => {
    const db = await getDb();
    let clock = Date.parse("2026-11-25T12:00:00Z");
    const client = buildDentalinkClient(liveSettings(), { client: { retries: 0, now: () => clock } });
    fake.failNext(5, 500);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const failed = await runSync(db, { client, form: form(), actor: actor() });
      expect(failed.errors).toEqual(["Error de conexión"]);
    }
    expect(client.status().circuit.state).toBe("open");
    const callsBefore = fake.state.calls.length;
    const fast = await runSync(db, { client, form: form(), actor: actor() });
    expect(fast).toMatchObject({
      message: "Error al sincronizar con Dentalink",
      errors: ["Error de conexión"],
    });
    expect(fake.state.calls.length).toBe(callsBefore);
    expect(await syncRow(fast.syncId)).toMatchObject({
      errorDetail: expect.stringContaining("CIRCUIT_OPEN"),
    });

    clock += 30_000;
    const recovered = await runSync(db, { client, form: form(), actor: actor() });
    expect(recovered.success).toBe(true);
    expect(client.status().circuit.state).toBe("closed");
  });
});

describe("mock mode", () => {
  it("keeps what it creates in our database: a new store and client (a restart) reuse the patient", async () => {
    const db = await getDb();
    const settings: DentalinkSettings = {
      baseUrl: "https://api.dentalink.healthatom.com/api/v1",
      timeoutMs: 1_000,
      mockDelays: false,
    };
    const input = form({ rut: "7.654.321-6" });
    const first = await runSync(db, {
      client: buildDentalinkClient(settings, { store: createDatabaseMockStore() }),
      form: input,
      actor: actor(),
    });
    expect(first).toMatchObject({ success: true, patientReused: false });
    expect(await syncRow(first.syncId)).toMatchObject({ mode: "mock" });
    const [stored] = await db
      .select()
      .from(dentalinkMockPatients)
      .where(eq(dentalinkMockPatients.id, Number(first.patientId)));
    expect(stored?.record).toMatchObject({ rut: "7654321-6", nombre: "Rosa" });

    const second = await runSync(db, {
      client: buildDentalinkClient(settings, { store: createDatabaseMockStore() }),
      form: { ...input, submissionId: randomUUID(), appointmentDate: nextSlotDate() },
      actor: actor(),
    });
    expect(second).toMatchObject({
      success: true,
      patientId: first.patientId,
      patientReused: true,
      matchedBy: "rut",
    });
    expect(Number(second.appointmentId)).toBe(Number(first.appointmentId) + 1);
  });
});

function syncFields(values: Record<string, string> = {}) {
  return {
    intent: "dentalink-sync",
    submissionId: randomUUID(),
    firstName: "Tomás",
    lastName: "Reyes",
    email: `tomas-${randomUUID()}@correo.example`,
    phone: uniquePhone(),
    birthDate: "1985-01-20",
    treatmentType: "implantes",
    appointmentDate: nextSlotDate(),
    appointmentTime: "15:00",
    dentistId: "dr-araya",
    ...values,
  };
}

describe("the /funnel sync action", () => {
  it("refuses a patient (403) and sends an anonymous visitor to sign in; nothing is synced", async () => {
    const fields = syncFields();
    const thrown = await funnelAction(routeArgs(postAs(patient.cookie, "/funnel", fields))).then(
      () => null,
      (error: unknown) => error,
    );
    expect((thrown as { init?: ResponseInit }).init?.status).toBe(403);
    const anonymous = await funnelAction(routeArgs(postAs(undefined, "/funnel", fields))).then(
      () => null,
      (error: unknown) => error,
    );
    expect(anonymous).toBeInstanceOf(Response);
    expect((anonymous as Response).status).toBe(302);
    const db = await getDb();
    const rows = await db
      .select()
      .from(dentalinkSyncs)
      .where(eq(dentalinkSyncs.submissionId, fields.submissionId));
    expect(rows).toEqual([]);
  });

  it("shows Dentalink's real state on the Overview's status list: modo demostración without a key", async () => {
    const overview = await funnelLoader(routeArgs(requestAs(asesor.cookie, "/funnel")));
    expect(overview.systems.map((system) => system.name)).toEqual([
      "WhatsApp API",
      "Dentalink API",
      "Bot IA",
      "Lead Scoring",
      "Cola de envíos (outbox)",
      "Webpay",
    ]);
    expect(overview.systems.find((system) => system.key === "dentalink")).toMatchObject({
      tone: "demo",
      label: "Modo demostración",
    });
  });

  it("lists every required message and the overall one for an empty submit", async () => {
    const { status, body } = unwrap<SyncActionData>(
      await funnelAction(
        routeArgs(postAs(asesor.cookie, "/funnel", { intent: "dentalink-sync", submissionId: randomUUID() })),
      ),
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ ok: false, message: "Por favor complete todos los campos requeridos" });
    if (body.ok) throw new Error("expected a failure");
    for (const [field, message] of Object.entries(SYNC_REQUIRED_MESSAGES)) {
      expect(body.fieldErrors?.[field]).toEqual([message]);
    }
  });

  it("prefills the tab from a lead, and a successful sync schedules the lead in the same transaction", async () => {
    const db = await getDb();
    const phone = uniquePhone();
    const [lead] = await db
      .insert(leads)
      .values({
        submissionId: randomUUID(),
        name: "Camila Andrea Rojas",
        phone,
        email: "camila.rojas@correo.example",
        treatment: "evaluacion",
        urgency: "1-mes",
        budget: "medio",
        score: 60,
        level: "warm",
        reasons: [],
        source: "web",
        consentAt: new Date(),
      })
      .returning({ id: leads.id });
    if (!lead) throw new Error("no lead");

    const page = await funnelLoader(
      routeArgs(requestAs(asesor.cookie, `/funnel?tab=dentalink&lead=${lead.id}`)),
    );
    expect(page.tab).toBe("dentalink");
    expect(page.sync?.mode).toBe("mock");
    expect(page.sync?.dashboardUrl).toBe("/funnel/dentalink");
    expect(page.sync?.dentists.map((dentist) => dentist.id)).toEqual([
      "dr-morales",
      "dr-vidal",
      "dr-araya",
      "dr-campos",
    ]);
    expect(page.sync?.prefill).toMatchObject({
      leadId: lead.id,
      firstName: "Camila",
      lastName: "Andrea Rojas",
      email: "camila.rojas@correo.example",
      treatmentType: "consulta",
    });

    const { body } = unwrap<SyncActionData>(
      await funnelAction(
        routeArgs(
          postAs(
            asesor.cookie,
            "/funnel",
            syncFields({ leadId: lead.id, firstName: "Camila", lastName: "Andrea Rojas", phone }),
          ),
        ),
      ),
    );
    if (!body.ok) throw new Error(`sync refused: ${body.message}`);
    expect(body.data.result).toMatchObject({ success: true });
    const [updated] = await db.select().from(leads).where(eq(leads.id, lead.id));
    expect(updated?.status).toBe("scheduled");
    expect(updated?.lastContactAt).toBeInstanceOf(Date);
    expect(await syncRow(body.data.result.syncId)).toMatchObject({ leadId: lead.id, outcome: "success" });
    const entries = await db.select().from(auditLog).where(eq(auditLog.action, "lead.status_changed"));
    expect(entries.map((entry) => entry.details)).toContainEqual(
      expect.objectContaining({ leadId: lead.id, status: "scheduled" }),
    );
  });

  it("reopens a lost lead that books through Dentalink: lost → contacted → scheduled, each with history and audit", async () => {
    const db = await getDb();
    const phone = uniquePhone();
    const [lead] = await db
      .insert(leads)
      .values({
        submissionId: randomUUID(),
        name: "Valentina Muñoz",
        phone,
        treatment: "implantes",
        urgency: "3-meses",
        budget: "medio",
        score: 50,
        level: "warm",
        reasons: [],
        source: "web",
        status: "lost",
        lostReason: "no-responde",
        consentAt: new Date(),
      })
      .returning({ id: leads.id });
    if (!lead) throw new Error("no lead");
    const { body } = unwrap<SyncActionData>(
      await funnelAction(
        routeArgs(
          postAs(
            asesor.cookie,
            "/funnel",
            syncFields({ leadId: lead.id, firstName: "Valentina", lastName: "Muñoz", phone }),
          ),
        ),
      ),
    );
    if (!body.ok) throw new Error(`sync refused: ${body.message}`);
    expect(body.data.result).toMatchObject({ success: true });
    const [updated] = await db.select().from(leads).where(eq(leads.id, lead.id));
    expect(updated).toMatchObject({ status: "scheduled", lostReason: null, furthestStage: 3 });
    expect(updated?.lastContactAt).toBeInstanceOf(Date);
    expect(updated?.firstContactAt).toBeInstanceOf(Date);
    const history = await db
      .select()
      .from(leadHistory)
      .where(and(eq(leadHistory.leadId, lead.id), eq(leadHistory.kind, "status")));
    const syncId = body.data.result.syncId;
    expect(history).toHaveLength(2);
    expect(history.map((row) => row.details)).toEqual(
      expect.arrayContaining([
        { from: "lost", to: "contacted", dentalinkSyncId: syncId },
        { from: "contacted", to: "scheduled", dentalinkSyncId: syncId },
      ]),
    );
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "lead.status_changed"));
    expect(
      audits
        .filter((entry) => entry.details.leadId === lead.id)
        .map((entry) => entry.details.status)
        .toSorted(),
    ).toEqual(["contacted", "scheduled"]);
  });

  it("leaves the lead as it was when the sync fails", async () => {
    const db = await getDb();
    const [lead] = await db
      .insert(leads)
      .values({
        submissionId: randomUUID(),
        name: "Diego Soto",
        phone: uniquePhone(),
        treatment: "implantes",
        urgency: "inmediato",
        budget: "alto",
        score: 85,
        level: "hot",
        reasons: [],
        source: "web",
        consentAt: new Date(),
      })
      .returning({ id: leads.id });
    if (!lead) throw new Error("no lead");
    const date = nextSlotDate();
    const post = (values: Record<string, string>) =>
      funnelAction(
        routeArgs(postAs(asesor.cookie, "/funnel", syncFields({ appointmentDate: date, ...values }))),
      );
    await post({});
    const { body } = unwrap<SyncActionData>(await post({ leadId: lead.id }));
    if (!body.ok) throw new Error("expected an answer with a result");
    expect(body.data.result).toMatchObject({ success: false, errors: ["Datos duplicados"] });
    const [unchanged] = await db.select().from(leads).where(eq(leads.id, lead.id));
    expect(unchanged).toMatchObject({ status: "new", lastContactAt: null });
  });
});

describe("/funnel/dentalink (the mock's read-only page)", () => {
  it("is for staff only and lists the demo data with what syncs created", async () => {
    const refused = await mockPageLoader(routeArgs(requestAs(patient.cookie, "/funnel/dentalink"))).then(
      () => null,
      (error: unknown) => error,
    );
    expect((refused as { init?: ResponseInit }).init?.status).toBe(403);
    const page = await mockPageLoader(routeArgs(requestAs(asesor.cookie, "/funnel/dentalink")));
    expect(page.patients).toContainEqual(
      expect.objectContaining({ id: "1001", name: "Catalina Soto", created: false }),
    );
    expect(page.patients.some((entry) => entry.created)).toBe(true);
    expect(page.appointments.some((entry) => entry.created)).toBe(true);
  });
});
