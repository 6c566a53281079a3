import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { appointments, clinicalRecordBindings, dentalinkDentistLinks, outbox, users } from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { openDays, DEFAULT_WEEK } from "~/domain/slots";
import {
  bookAppointment,
  cancelAppointment,
  rescheduleAppointment,
} from "~/features/appointments/appointment-service.server";
import { buildDentalinkClient } from "~/features/dentalink-sync/dentalink-settings.server";
import { loadSyncTab } from "~/features/dentalink-sync/dentalink-sync-service.server";
import {
  CREATED_PATIENT_NOTE,
  createDentalinkWriteThroughHandler,
  DENTALINK_APPOINTMENT_KIND,
  loadFailedWriteThroughs,
  queueDentalinkWriteThrough,
  WRITE_THROUGH_SLOT_TAKEN,
} from "~/features/dentalink-sync/dentalink-writethrough.server";
import { deliverDue, type OutboxHandler } from "~/features/outbox/outbox.server";
import { MOCK_APPOINTMENTS } from "~/integrations/dentalink/dentalink-demo-data";
import { startDentalinkFake, type DentalinkFake } from "~/integrations/dentalink/dentalink-fake";
import { uniquePhone } from "../setup/clients";
import { createTestUser, type TestUser } from "../setup/factories";

// Portal bookings written through to Dentalink (ADR 023) against the fake Dentalink over HTTP: the booking,
// reschedule and cancel of Mis Citas each queue an outbox row (live mode only) that the handler applies at Dentalink.

const API_KEY = vi.hoisted(() => {
  const key = `key-writethrough-${Date.now()}`;
  // Live mode for this file: the env module is read once, when the first module using it loads.
  process.env.DENTALINK_API_KEY = key;
  return key;
});

let fake: DentalinkFake;
let handlers: Record<string, OutboxHandler>;
const HOUR = 3_600_000;

beforeAll(async () => {
  fake = await startDentalinkFake({ apiKey: API_KEY });
  const client = buildDentalinkClient(
    { apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 5_000, mockDelays: false },
    { client: { retries: 0, backoff: { baseMs: 5, maxMs: 10 } } },
  );
  handlers = { [DENTALINK_APPOINTMENT_KIND]: createDentalinkWriteThroughHandler({ client: () => client }) };
});

afterAll(async () => {
  delete process.env.DENTALINK_API_KEY;
  await fake?.close();
  await closeDb();
});

let dayIndex = 0;
/**
 * A later open weekday per call, never the same twice (the first open day on or after today + n would give a
 * Saturday's and a Sunday's n the same Monday), and none the fake's agenda already holds (its demo records book
 * 2026-12-14 at 10:30): each test also books its own time, so the fake's agendas never collide.
 */
function nextDay() {
  const days = openDays(addDays(clinicDate(new Date()), 4), 60, DEFAULT_WEEK);
  let day: string;
  do day = days[dayIndex++]!;
  while ([...MOCK_APPOINTMENTS, ...fake.state.appointments].some((item) => item.fecha === day));
  return day;
}

function freshClient() {
  return buildDentalinkClient({ apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 5_000, mockDelays: false });
}

async function people(
  options: { dentistName?: [string, string]; patient?: Partial<typeof users.$inferInsert> } = {},
) {
  const [patient, dentist] = await Promise.all([
    createTestUser({
      firstName: "Marta",
      columns: { lastName: "Rojas", phone: uniquePhone(), ...options.patient },
    }),
    createTestUser({
      roles: ["dentista"],
      firstName: options.dentistName?.[0] ?? "Ignacio",
      // Linked by its name, as the demo dentists are.
      columns: options.dentistName ? { lastName: options.dentistName[1] } : {},
    }),
  ]);
  const db = await getDb();
  if (!options.dentistName) {
    // Each test's dentist takes over Dentalink's first dentist (one agenda is linked to one dentist of ours).
    await db.delete(dentalinkDentistLinks).where(eq(dentalinkDentistLinks.dentalinkDentistId, "dr-morales"));
    await db
      .insert(dentalinkDentistLinks)
      .values({ dentistId: dentist.id, dentalinkDentistId: "dr-morales", source: "admin" });
  }
  return { patient, dentist };
}

async function book(patient: TestUser, dentist: TestUser, date: string, time = "10:00") {
  const db = await getDb();
  return bookAppointment(db, patient.id, { treatmentSlug: "consulta", dentistId: dentist.id, date, time });
}

async function rowsOf(appointmentId: string) {
  const db = await getDb();
  return db
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, DENTALINK_APPOINTMENT_KIND),
        sql`${outbox.payload}->>'appointmentId' = ${appointmentId}`,
      ),
    )
    .orderBy(outbox.seq);
}

/** Runs the worker's delivery for this kind, as if `minutesLater` had passed (retries become due). */
async function deliver(minutesLater = 0) {
  const db = await getDb();
  const at = new Date(Date.now() + minutesLater * 60_000);
  while ((await deliverDue(db, handlers, at)) > 0) {
    // until nothing is due
  }
}

async function ours(appointmentId: string) {
  const db = await getDb();
  const [row] = await db.select().from(appointments).where(eq(appointments.id, appointmentId));
  return row!;
}

function createdAtFake(patientId: string) {
  return fake.state.appointments.filter((item) => String(item.id_paciente) === patientId);
}

function postsToCitas() {
  return fake.state.calls.filter((call) => call.method === "POST" && call.path.startsWith("/api/v1/citas"));
}

describe("portal bookings written through to Dentalink", () => {
  it("a booking creates the patient and the appointment at Dentalink and keeps both ids", async () => {
    const { patient, dentist } = await people({ dentistName: ["Fernanda", "Vidal"] });
    const date = nextDay();
    const booked = await book(patient, dentist, date);
    expect(await rowsOf(booked.id)).toHaveLength(1);
    const patientsBefore = fake.state.patients.length;
    await deliver();

    const row = await ours(booked.id);
    expect(row.dentalinkAppointmentId).toBeTruthy();
    expect(row.dentalinkPatientId).toBeTruthy();
    expect(fake.state.patients.length).toBe(patientsBefore + 1);
    const created = fake.state.patients.find((item) => String(item.id) === row.dentalinkPatientId)!;
    expect(created.email).toBe(patient.email);
    const [appointment] = createdAtFake(row.dentalinkPatientId!);
    expect(String(appointment!.id)).toBe(row.dentalinkAppointmentId);
    expect(appointment).toMatchObject({ fecha: date, hora_inicio: "10:00", id_dentista: "dr-vidal" });
    const [sent] = await rowsOf(booked.id);
    expect(sent!.status).toBe("sent");
  });

  it("reuses a patient Dentalink already has (found by e-mail) instead of creating another", async () => {
    const email = `ya-existe-${randomUUID()}@correo.example`;
    const existing = await freshClient().createPatient({ firstName: "Marta", lastName: "Rojas", email });
    const { patient, dentist } = await people();
    const db = await getDb();
    await db.update(users).set({ email }).where(eq(users.id, patient.id));
    const patientsBefore = fake.state.patients.length;

    const booked = await book(patient, dentist, nextDay(), "11:00");
    await deliver();

    const row = await ours(booked.id);
    expect(row.dentalinkPatientId).toBe(existing.id);
    expect(fake.state.patients.length).toBe(patientsBefore);
    expect(createdAtFake(row.dentalinkPatientId!)).toHaveLength(1);
  });

  it("a cancel in Mis Citas cancels the appointment at Dentalink", async () => {
    const { patient, dentist } = await people();
    const booked = await book(patient, dentist, nextDay(), "14:00");
    await deliver();
    const db = await getDb();
    await cancelAppointment(db, patient.id, booked.id);
    await deliver();

    const row = await ours(booked.id);
    const client = freshClient();
    const [atDentalink] = await client.listAppointments(row.dentalinkPatientId!);
    expect(atDentalink!.id).toBe(row.dentalinkAppointmentId);
    expect(atDentalink!.statusKind).toBe("cancelled");
    expect((await rowsOf(booked.id)).map((item) => item.status)).toEqual(["sent", "sent"]);
  });

  it("a cancel queued before its booking reached Dentalink waits for it, then cancels", async () => {
    const { patient, dentist } = await people();
    const booked = await book(patient, dentist, nextDay(), "15:00");
    const db = await getDb();
    await cancelAppointment(db, patient.id, booked.id);
    fake.failNext(1, 503);
    await deliver();
    // The booking is waiting for its retry; the cancel must not be lost nor skipped.
    expect((await rowsOf(booked.id)).map((item) => item.status)).toEqual(["pending", "pending"]);
    await deliver(60);
    const row = await ours(booked.id);
    const client = freshClient();
    const [atDentalink] = await client.listAppointments(row.dentalinkPatientId!);
    expect(atDentalink!.statusKind).toBe("cancelled");
    expect((await rowsOf(booked.id)).map((item) => item.status)).toEqual(["sent", "sent"]);
  });

  it("a reschedule moves it at Dentalink: the old one cancelled, the new one created, the new id kept", async () => {
    const { patient, dentist } = await people();
    const date = nextDay();
    const booked = await book(patient, dentist, date, "09:00");
    await deliver();
    const before = await ours(booked.id);
    const target = nextDay();
    const db = await getDb();
    await rescheduleAppointment(db, patient.id, booked.id, { date: target, time: "16:00" });
    await deliver();

    const after = await ours(booked.id);
    expect(after.dentalinkAppointmentId).toBeTruthy();
    expect(after.dentalinkAppointmentId).not.toBe(before.dentalinkAppointmentId);
    const client = freshClient();
    const list = await client.listAppointments(after.dentalinkPatientId!);
    expect(list.find((item) => item.id === before.dentalinkAppointmentId)!.statusKind).toBe("cancelled");
    expect(list.find((item) => item.id === after.dentalinkAppointmentId)).toMatchObject({
      date: target,
      time: "16:00",
    });
  });

  it("a 503 is retried with the outbox's backoff and the appointment is created once", async () => {
    const { patient, dentist } = await people();
    const booked = await book(patient, dentist, nextDay(), "09:30");
    const postsBefore = postsToCitas().length;
    fake.failNext(1, 503);
    await deliver();
    const [waiting] = await rowsOf(booked.id);
    expect(waiting!.status).toBe("pending");
    expect(waiting!.lastError).toBeTruthy();
    expect((await ours(booked.id)).dentalinkAppointmentId).toBeNull();
    // Staff see it waiting for its retry, with the attempt count and the next try.
    const db = await getDb();
    const listed = (await loadFailedWriteThroughs(db)).find((item) => item.appointmentId === booked.id);
    expect(listed).toMatchObject({ state: "retrying", attempts: 1, maxAttempts: 8 });
    expect(listed!.reason).toMatch(
      /^Dentalink no respondió o falló; el envío se reintentará automáticamente\. Último error: /,
    );
    expect(new Date(listed!.nextAttemptAt!).getTime()).toBeGreaterThan(Date.now());

    await deliver(60);
    const row = await ours(booked.id);
    expect(row.dentalinkAppointmentId).toBeTruthy();
    expect(createdAtFake(row.dentalinkPatientId!)).toHaveLength(1);
    expect(postsToCitas().length).toBe(postsBefore + 1);
    expect((await rowsOf(booked.id))[0]!.status).toBe("sent");
    expect((await loadFailedWriteThroughs(db)).map((item) => item.appointmentId)).not.toContain(booked.id);
  });

  it("a retried create whose answer was lost finds the appointment instead of creating it twice", async () => {
    const { patient, dentist } = await people();
    const booked = await book(patient, dentist, nextDay(), "10:30");
    await deliver();
    const first = await ours(booked.id);
    const db = await getDb();
    // As if the create reached Dentalink but its ids were never stored: the row is delivered again.
    await db.update(appointments).set({ dentalinkAppointmentId: null }).where(eq(appointments.id, booked.id));
    await db
      .update(outbox)
      .set({ status: "pending", nextAttemptAt: new Date(0) })
      .where(eq(outbox.id, (await rowsOf(booked.id))[0]!.id));
    await deliver();
    const again = await ours(booked.id);
    expect(again.dentalinkAppointmentId).toBe(first.dentalinkAppointmentId);
    expect(createdAtFake(first.dentalinkPatientId!)).toHaveLength(1);
  });

  it("a slot taken at Dentalink (409) fails for good, with its reason listed for staff", async () => {
    const { patient, dentist } = await people();
    const date = nextDay();
    // Someone took the slot at Dentalink in the agenda our dentist is linked to (the first active one).
    const client = freshClient();
    const [first] = (await client.listDentists()).filter((item) => item.active);
    const other = await client.createPatient({
      firstName: "Otro",
      lastName: "Paciente",
      phone: uniquePhone(),
    });
    await client.createAppointment({ patientId: other.id, dentistId: first!.id, date, time: "11:30" });
    const booked = await book(patient, dentist, date, "11:30");
    await deliver();
    const [row] = await rowsOf(booked.id);
    expect(row!.status).toBe("failed");
    expect(row!.attempts).toBe(1);
    expect(row!.lastError).toBe(WRITE_THROUGH_SLOT_TAKEN);
    const db = await getDb();
    const listed = await loadFailedWriteThroughs(db);
    expect(listed.find((item) => item.appointmentId === booked.id)).toMatchObject({
      action: "book",
      reason: WRITE_THROUGH_SLOT_TAKEN,
    });
    // Listed on the staff's Dentalink tab.
    const tab = await loadSyncTab(db, {
      client,
      settings: { apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 5_000, mockDelays: false },
      leadId: null,
    });
    expect(tab.failedWriteThroughs.map((item) => item.appointmentId)).toContain(booked.id);
    // The patient's booking stands.
    expect((await ours(booked.id)).status).toBe("scheduled");
  });

  it("mock mode (no key) queues nothing", async () => {
    const db = await getDb();
    const appointmentId = randomUUID();
    const startsAt = new Date(Date.now() + 72 * HOUR);
    await queueDentalinkWriteThrough(
      db,
      { appointmentId, action: "book", startsAt, endsAt: new Date(startsAt.getTime() + HOUR) },
      { apiKey: undefined, baseUrl: fake.url, timeoutMs: 5_000, mockDelays: false },
    );
    expect(await rowsOf(appointmentId)).toHaveLength(0);
  });
});

describe("who the account is at Dentalink (issue 19 item 2)", () => {
  it("attack: an account with a victim's phone books, and nothing lands in the victim's Dentalink record", async () => {
    const victimPhone = uniquePhone();
    const victim = await freshClient().createPatient({
      firstName: "Víctima",
      lastName: "Pérez",
      phone: victimPhone,
    });
    // Account B types the victim's phone in its profile (nothing verifies it) and books.
    const { patient: attacker, dentist } = await people({ patient: { phone: victimPhone } });
    const booked = await book(attacker, dentist, nextDay(), "14:30");
    await deliver();

    expect(createdAtFake(victim.id)).toEqual([]);
    const row = await ours(booked.id);
    expect(row.dentalinkAppointmentId).toBeTruthy();
    expect(row.dentalinkPatientId).not.toBe(victim.id);
    // A new Dentalink patient instead, flagged for the clinic's staff to merge if it is a duplicate.
    const [own] = createdAtFake(row.dentalinkPatientId!);
    expect(own!.comentarios).toContain(CREATED_PATIENT_NOTE);
  });

  it("attack: an account bound to its Dentalink patient stays that patient after changing its phone to a victim's", async () => {
    const client = freshClient();
    const ownPhone = uniquePhone();
    const own = await client.createPatient({ firstName: "Marta", lastName: "Rojas", phone: ownPhone });
    const victimPhone = uniquePhone();
    const victim = await client.createPatient({ firstName: "Víctima", lastName: "Soto", phone: victimPhone });
    const { patient, dentist } = await people({ patient: { phone: ownPhone } });
    const db = await getDb();
    // Mi Ficha bound the account to its own Dentalink patient (by RUT and a one-time code).
    await db.delete(clinicalRecordBindings).where(eq(clinicalRecordBindings.dentalinkPatientId, own.id));
    await db
      .insert(clinicalRecordBindings)
      .values({ userId: patient.id, dentalinkPatientId: own.id, rut: "11111111-1" });
    const first = await book(patient, dentist, nextDay(), "15:30");
    await deliver();
    expect((await ours(first.id)).dentalinkPatientId).toBe(own.id);

    await db.update(users).set({ phone: victimPhone }).where(eq(users.id, patient.id));
    const callsBefore = fake.state.calls.length;
    const second = await book(patient, dentist, nextDay(), "15:30");
    await deliver();

    expect((await ours(second.id)).dentalinkPatientId).toBe(own.id);
    expect(createdAtFake(own.id)).toHaveLength(2);
    expect(createdAtFake(victim.id)).toEqual([]);
    // The stored link is reused: no patient search at Dentalink for the second booking.
    const searches = fake.state.calls
      .slice(callsBefore)
      .filter((call) => call.method === "GET" && call.path.startsWith("/api/v1/pacientes?"));
    expect(searches).toEqual([]);
  });
});
