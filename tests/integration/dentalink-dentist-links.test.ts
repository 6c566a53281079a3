import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { appointments, auditLog, dentalinkDentistLinks, outbox } from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import { bookAppointment, rescheduleAppointment } from "~/features/appointments/appointment-service.server";
import {
  changeDentistLink,
  missingDentistMessage,
  unlinkedDentistMessage,
} from "~/features/dentalink-sync/dentalink-dentist-links.server";
import { buildDentalinkClient } from "~/features/dentalink-sync/dentalink-settings.server";
import {
  createDentalinkWriteThroughHandler,
  DENTALINK_APPOINTMENT_KIND,
  loadFailedWriteThroughs,
} from "~/features/dentalink-sync/dentalink-writethrough.server";
import type { DentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import { deliverDue, type OutboxHandler } from "~/features/outbox/outbox.server";
import { MOCK_APPOINTMENTS } from "~/integrations/dentalink/dentalink-demo-data";
import { startDentalinkFake, type DentalinkFake } from "~/integrations/dentalink/dentalink-fake";
import { action as funnelAction, loader as funnelLoader } from "~/routes/_staff/funnel";
import { postAs, requestAs, uniquePhone } from "../setup/clients";
import { routeArgs, unwrap } from "../setup/route-args";
import { createStaffMember, createTestUser, type TestUser } from "../setup/factories";

// Dentists matched by a stored link, not by name at booking time (ADR 024): our dentist is linked once to the
// Dentalink dentist of the same normalised name (or by an admin), a booking goes to that agenda, and a dentist
// without a link fails for good with its reason for staff — Dentalink is never asked to book another dentist.

const API_KEY = vi.hoisted(() => {
  const key = `key-links-${Date.now()}`;
  process.env.DENTALINK_API_KEY = key;
  return key;
});

const holder = globalThis as typeof globalThis & { __clinicaDentalink?: DentalinkClient };
let fake: DentalinkFake;
let client: DentalinkClient;
let handlers: Record<string, OutboxHandler>;
let admin: TestUser;
let asesor: TestUser;

beforeAll(async () => {
  fake = await startDentalinkFake({ apiKey: API_KEY });
  client = buildDentalinkClient(
    { apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 5_000, mockDelays: false },
    { client: { retries: 0, backoff: { baseMs: 5, maxMs: 10 } } },
  );
  // The routes read the process's one client: this one, against the fake.
  holder.__clinicaDentalink = client;
  handlers = { [DENTALINK_APPOINTMENT_KIND]: createDentalinkWriteThroughHandler({ client: () => client }) };
  [admin, asesor] = await Promise.all([
    createStaffMember(["admin"], { firstName: "Alicia" }),
    createStaffMember(["asesor"], { firstName: "Javiera" }),
  ]);
});

afterAll(async () => {
  delete process.env.DENTALINK_API_KEY;
  delete holder.__clinicaDentalink;
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
  const days = openDays(addDays(clinicDate(new Date()), 6), 60, DEFAULT_WEEK);
  let day: string;
  do day = days[dayIndex++]!;
  while ([...MOCK_APPOINTMENTS, ...fake.state.appointments].some((item) => item.fecha === day));
  return day;
}

async function dentistNamed(firstName: string, lastName: string) {
  return createTestUser({ roles: ["dentista"], firstName, columns: { lastName } });
}

async function bookWith(dentist: TestUser, time: string) {
  const patient = await createTestUser({
    firstName: "Marta",
    columns: { lastName: "Rojas", phone: uniquePhone() },
  });
  const db = await getDb();
  return bookAppointment(db, patient.id, {
    treatmentSlug: "consulta",
    dentistId: dentist.id,
    date: nextDay(),
    time,
  });
}

async function deliver(minutesLater = 0) {
  const db = await getDb();
  const at = new Date(Date.now() + minutesLater * 60_000);
  while ((await deliverDue(db, handlers, at)) > 0) {
    // until nothing is due
  }
}

async function rowOf(appointmentId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, DENTALINK_APPOINTMENT_KIND),
        sql`${outbox.payload}->>'appointmentId' = ${appointmentId}`,
      ),
    );
  return row!;
}

async function linkOf(dentistId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(dentalinkDentistLinks)
    .where(eq(dentalinkDentistLinks.dentistId, dentistId));
  return row ?? null;
}

async function ours(appointmentId: string) {
  const db = await getDb();
  const [row] = await db.select().from(appointments).where(eq(appointments.id, appointmentId));
  return row!;
}

const writes = () =>
  fake.state.calls.filter((call) => call.method !== "GET" && /\/api\/v1\/(citas|pacientes)/.test(call.path))
    .length;

const actor = () => ({ id: admin.id, roles: ["admin"], ip: "203.0.113.5" });

describe("dentists linked to Dentalink's", () => {
  it("links by name once, across accents and case, and books the linked dentist's agenda", async () => {
    // Dentalink has "Isidora Campos" (dr-campos); ours is written differently.
    const dentist = await dentistNamed("ISIDORA", "cámpos");
    const booked = await bookWith(dentist, "10:00");
    await deliver();

    expect(await linkOf(dentist.id)).toMatchObject({ dentalinkDentistId: "dr-campos", source: "name" });
    const row = await ours(booked.id);
    const created = fake.state.appointments.find((item) => String(item.id) === row.dentalinkAppointmentId);
    expect(created?.id_dentista).toBe("dr-campos");
    expect((await rowOf(booked.id)).status).toBe("sent");
  });

  it("an unlinked dentist: the write-through fails for good with its reason, and nothing is written at Dentalink", async () => {
    const dentist = await dentistNamed("Ignacio", "Pérez Soto");
    const booked = await bookWith(dentist, "11:00");
    const before = writes();
    await deliver();

    const row = await rowOf(booked.id);
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBe(unlinkedDentistMessage("Ignacio Pérez Soto"));
    expect(writes()).toBe(before);
    expect((await ours(booked.id)).dentalinkAppointmentId).toBeNull();
    const db = await getDb();
    const listed = (await loadFailedWriteThroughs(db)).find((item) => item.appointmentId === booked.id);
    expect(listed).toMatchObject({
      state: "failed",
      reason: unlinkedDentistMessage("Ignacio Pérez Soto"),
      dentistName: "Ignacio Pérez Soto",
      patientName: "Marta Rojas",
    });

    // An admin links it on the tab, staff retry: the appointment goes to that agenda.
    const linked = unwrap<{ ok: boolean }>(
      await funnelAction(
        routeArgs(
          postAs(admin.cookie, "/funnel", {
            intent: "dentalink-dentist-link",
            dentistId: dentist.id,
            dentalinkDentistId: "dr-araya",
          }),
        ),
      ),
    );
    expect(linked.body.ok).toBe(true);
    expect(await linkOf(dentist.id)).toMatchObject({ dentalinkDentistId: "dr-araya", source: "admin" });
    const retried = unwrap<{ ok: boolean }>(
      await funnelAction(
        routeArgs(
          postAs(asesor.cookie, "/funnel", { intent: "dentalink-writethrough-retry", outboxId: row.id }),
        ),
      ),
    );
    expect(retried.body.ok).toBe(true);
    await deliver();
    expect((await rowOf(booked.id)).status).toBe("sent");
    const after = await ours(booked.id);
    const created = fake.state.appointments.find((item) => String(item.id) === after.dentalinkAppointmentId);
    expect(created?.id_dentista).toBe("dr-araya");
    const audits = await db.select().from(auditLog).where(eq(auditLog.targetUserId, dentist.id));
    expect(audits.map((entry) => entry.action)).toContain("dentalink.dentist_linked");
  });

  it("a link to a dentist Dentalink no longer has active fails with that reason, not another agenda", async () => {
    const dentist = await dentistNamed("Rocío", "Fuentes");
    const db = await getDb();
    await db
      .insert(dentalinkDentistLinks)
      .values({ dentistId: dentist.id, dentalinkDentistId: "dr-se-fue", source: "admin" });
    const booked = await bookWith(dentist, "14:00");
    const before = writes();
    await deliver();
    const row = await rowOf(booked.id);
    expect(row.status).toBe("failed");
    expect(row.lastError).toBe(missingDentistMessage("Rocío Fuentes", "dr-se-fue"));
    expect(writes()).toBe(before);
  });

  it("an admin leaving a dentist unlinked is kept: no name match is tried again", async () => {
    const dentist = await dentistNamed("Tomás", "Araya");
    const db = await getDb();
    // dr-araya is taken by the earlier test's admin link, so Tomás Araya was not linked by name …
    await changeDentistLink(db, { client, dentistId: dentist.id, dentalinkDentistId: null, actor: actor() });
    expect(await linkOf(dentist.id)).toMatchObject({ dentalinkDentistId: null, source: "admin" });
    const booked = await bookWith(dentist, "15:00");
    await deliver();
    expect((await rowOf(booked.id)).lastError).toBe(unlinkedDentistMessage("Tomás Araya"));
  });

  it("refuses a link to an unknown or already linked Dentalink dentist, and a link by an asesor", async () => {
    const dentist = await dentistNamed("Paula", "Núñez");
    const post = (cookie: string, dentalinkDentistId: string) =>
      funnelAction(
        routeArgs(
          postAs(cookie, "/funnel", {
            intent: "dentalink-dentist-link",
            dentistId: dentist.id,
            dentalinkDentistId,
          }),
        ),
      ).then(
        (result) => unwrap<{ ok: boolean; message: string }>(result),
        (error: unknown) => ({ status: (error as { init?: ResponseInit }).init?.status ?? 0, body: null }),
      );
    const unknown = await post(admin.cookie, "dr-nadie");
    expect(unknown.status).toBe(400);
    expect(unknown.body?.message).toBe("Ese dentista no existe en Dentalink o no está activo.");
    const taken = await post(admin.cookie, "dr-campos");
    expect(taken.status).toBe(409);
    expect(taken.body?.message).toMatch(/ya está vinculado a ISIDORA cámpos/);
    const byAsesor = await post(asesor.cookie, "dr-vidal");
    expect(byAsesor.status).toBe(403);
    expect(await linkOf(dentist.id)).toBeNull();
    // Not one of our dentists (a patient's id): not found.
    const patient = await createTestUser();
    const notDentist = await funnelAction(
      routeArgs(
        postAs(admin.cookie, "/funnel", {
          intent: "dentalink-dentist-link",
          dentistId: patient.id,
          dentalinkDentistId: "dr-vidal",
        }),
      ),
    ).then(unwrap);
    expect(notDentist.status).toBe(404);
  });

  it("the tab shows every dentist's link to staff, editable only for admins; a patient cannot retry", async () => {
    const page = await funnelLoader(routeArgs(requestAs(asesor.cookie, "/funnel?tab=dentalink")));
    const links = page.sync!.dentistLinks;
    expect(page.sync!.canEditLinks).toBe(false);
    expect(links.find((link) => link.name === "ISIDORA cámpos")).toMatchObject({
      dentalinkDentistId: "dr-campos",
      dentalinkName: "Isidora Campos",
      source: "name",
      problem: null,
    });
    expect(links.find((link) => link.name === "Rocío Fuentes")?.problem).toBe("missing");
    expect(links.find((link) => link.name === "Tomás Araya")?.problem).toBe("unlinked");
    const asAdmin = await funnelLoader(routeArgs(requestAs(admin.cookie, "/funnel?tab=dentalink")));
    expect(asAdmin.sync!.canEditLinks).toBe(true);

    const patient = await createTestUser();
    const failed = asAdmin.sync!.failedWriteThroughs[0]!;
    const thrown = await funnelAction(
      routeArgs(
        postAs(patient.cookie, "/funnel", { intent: "dentalink-writethrough-retry", outboxId: failed.id }),
      ),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect((thrown as { init?: ResponseInit }).init?.status).toBe(403);
    const db = await getDb();
    const [still] = await db.select().from(outbox).where(eq(outbox.id, failed.id));
    expect(still!.status).toBe("failed");
  });

  it("a reschedule for a dentist unlinked meanwhile leaves the old appointment at Dentalink and records why", async () => {
    const dentist = await dentistNamed("Lucía", "Ortiz");
    const db = await getDb();
    await changeDentistLink(db, {
      client,
      dentistId: dentist.id,
      dentalinkDentistId: "dr-vidal",
      actor: actor(),
    });
    const booked = await bookWith(dentist, "16:00");
    await deliver();
    const before = await ours(booked.id);
    expect(
      fake.state.appointments.find((item) => String(item.id) === before.dentalinkAppointmentId),
    ).toMatchObject({
      id_dentista: "dr-vidal",
    });

    await changeDentistLink(db, { client, dentistId: dentist.id, dentalinkDentistId: null, actor: actor() });
    const patientId = (await ours(booked.id)).patientId;
    await rescheduleAppointment(db, patientId, booked.id, { date: nextDay(), time: "16:30" });
    const puts = fake.state.calls.filter((call) => call.method === "PUT").length;
    await deliver();
    const rows = await db
      .select()
      .from(outbox)
      .where(sql`${outbox.payload}->>'appointmentId' = ${booked.id}`)
      .orderBy(outbox.seq);
    expect(rows.map((row) => row.status)).toEqual(["sent", "failed"]);
    expect(rows[1]!.lastError).toBe(unlinkedDentistMessage("Lucía Ortiz"));
    // Nothing was cancelled at Dentalink: the old appointment stands until staff fix the link and retry.
    expect(fake.state.calls.filter((call) => call.method === "PUT").length).toBe(puts);
    const old = fake.state.appointments.find((item) => String(item.id) === before.dentalinkAppointmentId);
    expect(old?.id_estado).not.toBe(1);
  });
});
