import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { appointments, whatsAppMessages } from "~/db/schema";
import { addDays, clinicDate, clinicInstant } from "~/domain/clinic-time";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import type { AppointmentActionResult } from "~/features/appointments/appointment-schema";
import type { AppointmentsPageData } from "~/features/appointments/components/appointment-types";
import { env } from "~/lib/base/env.server";
import { action, loader } from "~/routes/_patient/appointments";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { requestAs } from "../setup/clients";
import { createTestUser, insertAppointment, type TestUser } from "../setup/factories";

afterAll(closeDb);

const CAP = env().MAX_UPCOMING_APPOINTMENTS;
const CAP_MESSAGE = `Ya tienes ${CAP} citas próximas`;
const UNVERIFIED_MESSAGE = "Para agendar una cita necesitas confirmar tu correo";

/** Distinct open weekdays from the day after tomorrow on (enough for the cap plus the bookings under test). */
const days = () => openDays(addDays(clinicDate(new Date()), 2), CAP + 6, DEFAULT_WEEK);

function post(user: TestUser, fields: Record<string, string>) {
  return settle<AppointmentActionResult>(() =>
    action(
      routeArgs(
        requestAs(user.cookie, "/paciente/citas", { method: "POST", body: new URLSearchParams(fields) }),
      ),
    ),
  );
}

const book = (user: TestUser, dentist: TestUser, date: string, time: string) =>
  post(user, { intent: "book", treatment: "consulta", dentist: dentist.id, date, time });

async function pageData(user: TestUser): Promise<AppointmentsPageData> {
  return loader(routeArgs(requestAs(user.cookie, "/paciente/citas")));
}

async function insertConsulta(patient: TestUser, dentist: TestUser, startsAt: Date, status = "scheduled") {
  return insertAppointment({
    patientId: patient.id,
    dentistId: dentist.id,
    slug: "consulta",
    startsAt,
    status,
  });
}

/** `count` live upcoming appointments, one per open day, alternating scheduled and confirmed. */
async function fillUpcoming(patient: TestUser, dentist: TestUser, count: number) {
  const rows = [];
  for (const [index, date] of days().slice(0, count).entries()) {
    rows.push(
      await insertConsulta(
        patient,
        dentist,
        clinicInstant(date, "10:00"),
        index % 2 ? "confirmed" : "scheduled",
      ),
    );
  }
  return rows;
}

async function appointmentsOf(patient: TestUser) {
  const db = await getDb();
  return db.select().from(appointments).where(eq(appointments.patientId, patient.id));
}

async function bookedNotifications(patient: TestUser) {
  const db = await getDb();
  return db
    .select({ id: whatsAppMessages.id })
    .from(whatsAppMessages)
    .where(
      and(
        eq(whatsAppMessages.purpose, "appointment-clinic"),
        eq(whatsAppMessages.userId, patient.id),
        like(whatsAppMessages.text, "Nueva cita agendada%"),
      ),
    );
}

describe("cap on a patient's upcoming appointments (MAX_UPCOMING_APPOINTMENTS)", () => {
  let dentist: TestUser;

  // A dentist of their own per test: the fixtures fill the same days and times.
  beforeEach(async () => {
    dentist = await createTestUser({ roles: ["dentista"], firstName: "Tope" });
  });

  it("refuses the booking beyond the cap with a Spanish message and stores nothing; past, cancelled and closed ones do not count", async () => {
    const patient = await createTestUser({ firstName: "Acaparadora" });
    const live = await fillUpcoming(patient, dentist, CAP - 1);
    const dayList = days();
    // None of these is an upcoming appointment.
    await insertConsulta(patient, dentist, clinicInstant(dayList[0]!, "15:00"), "cancelled");
    await insertConsulta(patient, dentist, new Date(Date.now() - 3 * 86_400_000), "completed");
    await insertConsulta(patient, dentist, new Date(Date.now() - 5 * 86_400_000), "no_show");
    await insertConsulta(patient, dentist, new Date(Date.now() - 7 * 86_400_000), "scheduled");

    const bookingDay = dayList[CAP + 1]!;
    const last = await book(patient, dentist, bookingDay, "09:00");
    expect(last.status).toBe(200);

    const before = await appointmentsOf(patient);
    const notificationsBefore = await bookedNotifications(patient);
    const refused = await book(patient, dentist, bookingDay, "11:00");
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      ok: false,
      code: "CONFLICT",
      message: expect.stringContaining(CAP_MESSAGE),
    });
    expect(await appointmentsOf(patient)).toEqual(before);
    expect(await bookedNotifications(patient)).toEqual(notificationsBefore);

    // Moving an appointment is not a new booking.
    const moved = await post(patient, {
      intent: "reschedule",
      appointmentId: live[0]!.id,
      date: dayList[CAP + 2]!,
      time: "14:00",
    });
    expect(moved.status).toBe(200);
    expect((await book(patient, dentist, bookingDay, "11:00")).status).toBe(409);

    // Cancelling one makes room again.
    expect((await post(patient, { intent: "cancel", appointmentId: live[1]!.id })).status).toBe(200);
    expect((await book(patient, dentist, bookingDay, "11:00")).status).toBe(200);
  });

  it("does not let simultaneous bookings overshoot the cap", async () => {
    const patient = await createTestUser({ firstName: "Simultanea" });
    await fillUpcoming(patient, dentist, CAP - 2);
    const day = days()[CAP + 3]!;
    const results = await Promise.all(
      ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "14:00", "14:30"].map((time) =>
        book(patient, dentist, day, time),
      ),
    );
    const statuses = results.map((result) => result.status).toSorted();
    expect(statuses).toEqual([200, 200, 409, 409, 409, 409, 409, 409]);
    for (const result of results.filter((item) => item.status === 409)) {
      expect(result.body).toEqual({
        ok: false,
        code: "CONFLICT",
        message: expect.stringContaining(CAP_MESSAGE),
      });
    }
    const live = (await appointmentsOf(patient)).filter((row) => row.status !== "cancelled");
    expect(live).toHaveLength(CAP);
    expect(await bookedNotifications(patient)).toHaveLength(2);
  });

  it("tells the page that booking is closed at the cap", async () => {
    const patient = await createTestUser({ firstName: "Llena" });
    expect((await pageData(patient)).booking).toEqual({ allowed: true });
    await fillUpcoming(patient, dentist, CAP);
    expect((await pageData(patient)).booking).toEqual({
      allowed: false,
      reason: "limit",
      message: expect.stringContaining(CAP_MESSAGE),
    });
  });
});

describe("booking needs a verified e-mail", () => {
  let dentist: TestUser;
  let unverified: TestUser;

  beforeAll(async () => {
    [dentist, unverified] = await Promise.all([
      createTestUser({ roles: ["dentista"], firstName: "Verifica" }),
      createTestUser({ verified: false, firstName: "Pendiente" }),
    ]);
  });

  it("refuses an unverified patient's booking with 403 and a Spanish message, storing nothing, but keeps confirm, reschedule and cancel", async () => {
    const result = await book(unverified, dentist, days()[4]!, "10:00");
    expect(result.status).toBe(403);
    expect(result.body).toEqual({
      ok: false,
      code: "FORBIDDEN",
      message: expect.stringContaining(UNVERIFIED_MESSAGE),
    });
    expect(await appointmentsOf(unverified)).toEqual([]);
    expect(await bookedNotifications(unverified)).toEqual([]);

    // Appointments the clinic booked for them stay manageable: none of these adds a booking.
    const [first, second] = await fillUpcoming(unverified, dentist, 2);
    expect((await post(unverified, { intent: "confirm", appointmentId: first!.id })).status).toBe(200);
    const moved = await post(unverified, {
      intent: "reschedule",
      appointmentId: first!.id,
      date: days()[6]!,
      time: "15:00",
    });
    expect(moved.status).toBe(200);
    expect((await post(unverified, { intent: "cancel", appointmentId: second!.id })).status).toBe(200);
    expect((await book(unverified, dentist, days()[4]!, "10:00")).status).toBe(403);
    expect(await appointmentsOf(unverified)).toHaveLength(2);
  });

  it("tells the page why booking is not offered", async () => {
    expect((await pageData(unverified)).booking).toEqual({
      allowed: false,
      reason: "unverified",
      message: expect.stringContaining(UNVERIFIED_MESSAGE),
    });
  });
});
