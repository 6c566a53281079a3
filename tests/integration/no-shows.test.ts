import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { appointments, auditLog, clinicSettings, patientDepositFlags } from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import type { NoShowDay } from "~/features/no-shows/no-show-dto";
import { markNoShow, undoNoShow } from "~/features/no-shows/no-show-service.server";
import { bookWithPayment } from "~/features/payments/booking-payment-service.server";
import { createWebpayClient, type WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { startWebpayFake, type WebpayFakeServer } from "~/integrations/webpay/webpay-fake";
import {
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
} from "~/integrations/webpay/webpay-schemas";
import { AppError } from "~/lib/base/errors";
import { action as adminDayAction, loader as adminDayLoader } from "~/routes/_admin/day-agenda";
import { action as settingsAction, loader as settingsLoader } from "~/routes/_admin/no-show-settings";
import { loader as userDetailLoader } from "~/routes/_admin/user-detail";
import { loader as agendaLoader } from "~/routes/_dentist/agenda";
import { action as markAction } from "~/routes/_dentist/no-show-mark";
import { loader as appointmentsLoader } from "~/routes/_patient/appointments";
import { postAs, requestAs } from "../setup/clients";
import { createTestUser, insertAppointment, type TestUser } from "../setup/factories";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";

// No-shows (issue 23, ADR 042): staff mark 'No asistió' (a dentist only their own appointments), undo it the same
// day, see the count; from N no-shows on, online booking asks a deposit (payments on) or a call (payments off).
// The test environment has no Webpay configured: the routes run with payments off; payments on is the fake.

afterAll(async () => {
  await server?.close();
  await closeDb();
});

const HOUR = 3_600_000;
let server: WebpayFakeServer;
let webpay: WebpayClient;
let dentist: TestUser;
let otherDentist: TestUser;
let admin: TestUser;

beforeAll(async () => {
  server = await startWebpayFake();
  webpay = createWebpayClient({
    commerceCode: WEBPAY_INTEGRATION_COMMERCE_CODE,
    apiKey: WEBPAY_INTEGRATION_API_KEY,
    baseUrl: server.url,
    // The fake answers from this process's event loop, which PGlite blocks while it runs a statement: on a
    // loaded machine 2 s was not always enough (CI). The timeout tests pass their own.
    timeoutMs: 10_000,
    sleep: async () => undefined,
  });
  [dentist, otherDentist, admin] = await Promise.all([
    createTestUser({ roles: ["dentista"], firstName: "Nora", columns: { professionalTitle: "dra" } }),
    createTestUser({ roles: ["dentista"], firstName: "Otto", columns: { professionalTitle: "dr" } }),
    createTestUser({ roles: ["admin"], firstName: "Ada" }),
  ]);
});

let shift = 0;
const BASE = Date.now();
/**
 * A one-minute appointment of `patient` with `withDentist` that started about `hoursAgo` hours ago (negative: still
 * ahead); each one a minute earlier than the last, so no two overlap.
 */
async function startedAppointment(
  patient: TestUser,
  hoursAgo: number,
  withDentist = dentist,
  status = "scheduled",
) {
  shift += 1;
  return insertAppointment({
    patientId: patient.id,
    dentistId: withDentist.id,
    startsAt: new Date(BASE - hoursAgo * HOUR - shift * 61_000),
    minutes: 1,
    status,
  });
}

async function row(appointmentId: string) {
  const [found] = await (await getDb()).select().from(appointments).where(eq(appointments.id, appointmentId));
  return found!;
}

async function flagOf(patientId: string) {
  const [found] = await (
    await getDb()
  )
    .select()
    .from(patientDepositFlags)
    .where(eq(patientDepositFlags.patientId, patientId));
  return found ?? null;
}

const post = (user: TestUser | undefined, fields: Record<string, string>, path = "/dentista/inasistencias") =>
  settle<{ ok: boolean; message: string; data?: { count: number } }>(() =>
    (path === "/admin/agenda" ? adminDayAction : markAction)(routeArgs(postAs(user?.cookie, path, fields))),
  );

let dayIndex = 0;
/** A fresh open weekday at least three days ahead for each booking. */
function nextDay() {
  dayIndex += 1;
  return openDays(addDays(clinicDate(new Date()), 3), 40, DEFAULT_WEEK)[dayIndex] ?? "";
}

const admins = () => ({ id: admin.id, roles: ["admin"], ip: "203.0.113.9" });

describe("marking 'No asistió'", () => {
  it("lets a dentist mark their own started appointment, records who and when, and audits it", async () => {
    const patient = await createTestUser({ firstName: "Pía" });
    const appointment = await startedAppointment(patient, 1);
    const result = await post(dentist, { intent: "mark", appointmentId: appointment.id });
    expect(result.status).toBe(200);
    expect(result.body.message).toContain("1 inasistencia en 12 meses");
    const after = await row(appointment.id);
    expect(after.status).toBe("no_show");
    expect(after.noShowMarkedBy).toBe(dentist.id);
    expect(after.noShowMarkedAt).not.toBeNull();
    const audits = await (
      await getDb()
    )
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "appointment.no_show"), eq(auditLog.targetUserId, patient.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorId).toBe(dentist.id);
    expect(audits[0]!.details).toMatchObject({ appointmentId: appointment.id, count: 1 });
  });

  it("answers 404 for another dentist's appointment and leaves it untouched", async () => {
    const patient = await createTestUser({ firstName: "Quena" });
    const appointment = await startedAppointment(patient, 1, otherDentist);
    const result = await post(dentist, { intent: "mark", appointmentId: appointment.id });
    expect(result.status).toBe(404);
    expect((await row(appointment.id)).status).toBe("scheduled");
    // An id that exists nowhere reads the same.
    const unknown = await post(dentist, { intent: "mark", appointmentId: crypto.randomUUID() });
    expect(unknown.status).toBe(404);
  });

  it("refuses a patient (403), even on their own appointment, and an anonymous caller", async () => {
    const patient = await createTestUser({ firstName: "Rosa" });
    const appointment = await startedAppointment(patient, 1);
    const asPatient = await post(patient, { intent: "mark", appointmentId: appointment.id });
    expect(asPatient.status).toBe(403);
    const anonymous = await post(undefined, { intent: "mark", appointmentId: appointment.id });
    expect(anonymous.thrown).toBe(true);
    expect(anonymous.status).not.toBe(200);
    expect((await row(appointment.id)).status).toBe("scheduled");
  });

  it("refuses an appointment that has not started, a completed one, and a malformed id", async () => {
    const patient = await createTestUser({ firstName: "Sara" });
    const ahead = await startedAppointment(patient, -3);
    expect((await post(dentist, { intent: "mark", appointmentId: ahead.id })).status).toBe(409);
    const done = await startedAppointment(patient, 5, dentist, "completed");
    expect((await post(dentist, { intent: "mark", appointmentId: done.id })).status).toBe(409);
    expect((await post(dentist, { intent: "mark", appointmentId: "1 or 1=1" })).status).toBe(400);
  });

  it("undoes a mark the same day, back to confirmed when the patient had confirmed", async () => {
    const patient = await createTestUser({ firstName: "Tere" });
    const appointment = await startedAppointment(patient, 1, dentist, "confirmed");
    const db = await getDb();
    await db
      .update(appointments)
      .set({ confirmedAt: new Date(Date.now() - 20 * HOUR) })
      .where(eq(appointments.id, appointment.id));
    await post(dentist, { intent: "mark", appointmentId: appointment.id });
    const undone = await post(dentist, { intent: "undo", appointmentId: appointment.id });
    expect(undone.status).toBe(200);
    const after = await row(appointment.id);
    expect(after.status).toBe("confirmed");
    expect(after.noShowMarkedAt).toBeNull();
    // Another dentist cannot undo it either.
    await post(dentist, { intent: "mark", appointmentId: appointment.id });
    expect((await post(otherDentist, { intent: "undo", appointmentId: appointment.id })).status).toBe(404);
  });

  it("refuses to undo a mark of an earlier clinic day", async () => {
    const patient = await createTestUser({ firstName: "Ulla" });
    const appointment = await startedAppointment(patient, 30);
    const markedAt = new Date(Date.now() - 28 * HOUR);
    await markNoShow(await getDb(), admins(), appointment.id, { paymentsOn: false, now: markedAt });
    const refused = await undoNoShow(await getDb(), admins(), appointment.id, { paymentsOn: false }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("CONFLICT");
  });
});

describe("the day views show each patient's count", () => {
  it("lists the dentist's own appointments of the day with the count and the actions", async () => {
    const patient = await createTestUser({ firstName: "Vera" });
    const old = await startedAppointment(patient, 24 * 20);
    await markNoShow(await getDb(), admins(), old.id, { paymentsOn: false });
    const recent = await startedAppointment(patient, 0.05);
    const others = await startedAppointment(patient, 0.05, otherDentist);
    // The views are asked for the day these visits started on: just after midnight (Santiago) that is yesterday,
    // which the default view (today) would not show.
    const date = clinicDate(recent.startsAt);
    const page = await settle<{ noShows: NoShowDay }>(() =>
      agendaLoader(routeArgs(requestAs(dentist.cookie, `/dentista?fecha=${date}`))),
    );
    expect(page.status).toBe(200);
    expect(page.body.noShows.date).toBe(date);
    const mine = page.body.noShows.rows.find((item) => item.appointmentId === recent.id);
    expect(mine).toMatchObject({ noShowCount: 1, noShowText: "1 inasistencia en 12 meses", canMark: true });
    expect(page.body.noShows.rows.some((item) => item.appointmentId === others.id)).toBe(false);

    // The admin's view of every dentist, on each visit's own day (they are a minute apart: midnight may part them).
    const adminRows: NoShowDay["rows"] = [];
    for (const day of new Set([recent, others].map((item) => clinicDate(item.startsAt)))) {
      const adminPage = await settle<{ day: NoShowDay }>(() =>
        adminDayLoader(routeArgs(requestAs(admin.cookie, `/admin/agenda?fecha=${day}`))),
      );
      adminRows.push(...adminPage.body.day.rows);
    }
    const both = adminRows.filter((item) => [recent.id, others.id].includes(item.appointmentId));
    expect(both).toHaveLength(2);
    // Each with their title (issue 24): Nora is "Dra.", Otto "Dr.".
    expect(both.map((item) => item.dentistName).toSorted()).toEqual(["Dr. Otto Test", "Dra. Nora Test"]);

    const detail = await settle<{ noShowCount: number }>(() =>
      userDetailLoader(
        routeArgs(requestAs(admin.cookie, `/admin/usuarios/${patient.id}`), { userId: patient.id }),
      ),
    );
    expect(detail.body.noShowCount).toBe(1);
  });

  it("lets an admin mark any dentist's appointment from /admin/agenda, and keeps the admin day view from dentists", async () => {
    const patient = await createTestUser({ firstName: "Wanda" });
    const appointment = await startedAppointment(patient, 2, otherDentist);
    const result = await post(admin, { intent: "mark", appointmentId: appointment.id }, "/admin/agenda");
    expect(result.status).toBe(200);
    expect((await row(appointment.id)).noShowMarkedBy).toBe(admin.id);
    const asDentist = await settle(() =>
      adminDayLoader(routeArgs(requestAs(dentist.cookie, "/admin/agenda"))),
    );
    expect(asDentist.status).toBe(403);
  });
});

describe("the rule for repeated no-shows", () => {
  it("with payments on, writes the deposit flag at the second no-shows in the mark's transaction, and a booking then asks a deposit", async () => {
    const db = await getDb();
    const patient = await createTestUser({ firstName: "Ximena" });
    const [first, second] = [await startedAppointment(patient, 48), await startedAppointment(patient, 2)];
    const on = { paymentsOn: true } as const;
    expect((await markNoShow(db, admins(), first.id, on)).depositRequired).toBe(false);
    expect(await flagOf(patient.id)).toBeNull();
    const outcome = await markNoShow(db, admins(), second.id, on);
    expect(outcome).toMatchObject({ count: 2, depositRequired: true });
    const flag = await flagOf(patient.id);
    expect(flag).toMatchObject({ required: true, reason: "no_shows", details: { count: 2, threshold: 2 } });

    // Consulta asks no deposit of its own: the flagged patient leaves the repeat-no-show deposit.
    const booked = await bookWithPayment(
      db,
      patient.id,
      { treatment: "consulta", dentist: dentist.id, date: nextDay(), time: "10:00" },
      webpay,
    );
    expect(booked.kind).toBe("payment");

    // Mis Citas says why (the routes run without payments, so the notice is checked through the flag's text).
    await undoNoShow(db, admins(), second.id, on);
    expect(await flagOf(patient.id)).toBeNull();
    const free = await bookWithPayment(
      db,
      patient.id,
      { treatment: "consulta", dentist: dentist.id, date: nextDay(), time: "11:00" },
      webpay,
    );
    expect(free.kind).toBe("booked");
  });

  it("never removes a deposit flag the clinic set for another reason", async () => {
    const db = await getDb();
    const patient = await createTestUser({ firstName: "Yolanda" });
    await db.insert(patientDepositFlags).values({ patientId: patient.id, reason: "manual" });
    const appointment = await startedAppointment(patient, 2);
    await markNoShow(db, admins(), appointment.id, { paymentsOn: true });
    await undoNoShow(db, admins(), appointment.id, { paymentsOn: true });
    expect(await flagOf(patient.id)).toMatchObject({ reason: "manual", required: true });
  });

  it("without payments, refuses online booking with the clinic's phone and says so in Mis Citas", async () => {
    const db = await getDb();
    const patient = await createTestUser({ firstName: "Zoe" });
    for (const hoursAgo of [24 * 40, 3]) {
      const appointment = await startedAppointment(patient, hoursAgo);
      await db
        .update(appointments)
        .set({ status: "no_show", noShowMarkedAt: new Date(), noShowMarkedBy: dentist.id })
        .where(eq(appointments.id, appointment.id));
    }
    const refused = await bookWithPayment(
      db,
      patient.id,
      { treatment: "consulta", dentist: dentist.id, date: nextDay(), time: "12:00" },
      null,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("CONFLICT");
    expect((refused as AppError).message).toMatch(
      /2 inasistencias en los últimos 12 meses: .*llámanos al \+56/,
    );
    expect(await flagOf(patient.id)).toBeNull();

    const page = await settle<{ booking: { allowed: boolean; reason?: string; message?: string } }>(() =>
      appointmentsLoader(routeArgs(requestAs(patient.cookie, "/paciente/citas"))),
    );
    expect(page.body.booking).toMatchObject({ allowed: false, reason: "no_shows" });
    expect(page.body.booking.message).toContain("llámanos");
  });

  it("counts only the last 12 months: a no-show of 13 months ago does not refuse", async () => {
    const db = await getDb();
    const patient = await createTestUser({ firstName: "Amalia" });
    for (const hoursAgo of [24 * 400, 3]) {
      const appointment = await startedAppointment(patient, hoursAgo);
      await db.update(appointments).set({ status: "no_show" }).where(eq(appointments.id, appointment.id));
    }
    const booked = await bookWithPayment(
      db,
      patient.id,
      { treatment: "consulta", dentist: dentist.id, date: nextDay(), time: "09:00" },
      null,
    );
    expect(booked.kind).toBe("booked");
  });
});

describe("/admin/inasistencias", () => {
  it("is for admins only", async () => {
    for (const user of [dentist, await createTestUser({ firstName: "Beto" })]) {
      expect(
        (await settle(() => settingsLoader(routeArgs(requestAs(user.cookie, "/admin/inasistencias")))))
          .status,
      ).toBe(403);
      const posted = await settle(() =>
        settingsAction(
          routeArgs(postAs(user.cookie, "/admin/inasistencias", { enabled: "on", threshold: "1" })),
        ),
      );
      expect(posted.status).toBe(403);
    }
    const db = await getDb();
    expect(await db.select().from(clinicSettings).where(eq(clinicSettings.key, "no_shows"))).toHaveLength(0);
  });

  it("validates, stores and audits the rule, which the booking then follows", async () => {
    const db = await getDb();
    const invalid = await settle<{ ok: boolean; fieldErrors?: Record<string, string[]> }>(() =>
      settingsAction(
        routeArgs(postAs(admin.cookie, "/admin/inasistencias", { enabled: "on", threshold: "0" })),
      ),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.fieldErrors?.threshold?.[0]).toContain("entre 1 y 10");

    const saved = await settle(() =>
      settingsAction(
        routeArgs(postAs(admin.cookie, "/admin/inasistencias", { enabled: "on", threshold: "3" })),
      ),
    );
    expect(saved.status).toBe(200);
    const [stored] = await db.select().from(clinicSettings).where(eq(clinicSettings.key, "no_shows"));
    expect(stored?.value).toEqual({ enabled: true, threshold: 3 });
    expect(stored?.updatedBy).toBe(admin.id);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "settings.no_shows"));
    expect(audit?.details).toMatchObject({ before: { threshold: 2 }, after: { threshold: 3 } });
    const view = await settle<{ threshold: number }>(() =>
      settingsLoader(routeArgs(requestAs(admin.cookie, "/admin/inasistencias"))),
    );
    expect(view.body.threshold).toBe(3);

    // Two no-shows no longer refuse at a threshold of three; switched off, nothing does.
    const patient = await createTestUser({ firstName: "Carmen" });
    for (const hoursAgo of [24 * 10, 4]) {
      const appointment = await startedAppointment(patient, hoursAgo);
      await db.update(appointments).set({ status: "no_show" }).where(eq(appointments.id, appointment.id));
    }
    const booking = { treatment: "consulta", dentist: dentist.id, time: "15:00" };
    expect((await bookWithPayment(db, patient.id, { ...booking, date: nextDay() }, null)).kind).toBe(
      "booked",
    );
    await settingsAction(routeArgs(postAs(admin.cookie, "/admin/inasistencias", { threshold: "1" })));
    expect((await bookWithPayment(db, patient.id, { ...booking, date: nextDay() }, null)).kind).toBe(
      "booked",
    );
  });
});
