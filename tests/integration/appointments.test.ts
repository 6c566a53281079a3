import { randomUUID } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { appointments, users, whatsAppMessages } from "~/db/schema";
import { addDays, clinicDate, clinicInstant, isoWeekday, startOfClinicDay } from "~/domain/clinic-time";
import { formatDateWithWeekday } from "~/domain/format";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import type { AppointmentActionResult, SlotsResponse } from "~/features/appointments/appointment-schema";
import type { AppointmentsPageData } from "~/features/appointments/components/appointment-types";
import { action, loader } from "~/routes/_patient/appointments";
import { loader as slotsLoader } from "~/routes/_patient/appointment-slots";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { requestAs } from "../setup/clients";
import { createTestUser, insertAppointment, type TestUser } from "../setup/factories";

afterAll(closeDb);

const HOUR = 3_600_000;
const SLOT_TAKEN =
  "Ese horario ya no está disponible: alguien lo tomó hace un momento. Elige otro, por favor.";
const NOT_FOUND = "No encontramos esa cita.";

const today = () => clinicDate(new Date());

/** The first open weekday at least `offset` days after the clinic's today. */
function weekdayAfter(offset: number): string {
  return openDays(addDays(today(), offset), 1, DEFAULT_WEEK)[0]!;
}

/** The first weekday strictly before the clinic's today. */
function pastWeekday(): string {
  let day = addDays(today(), -1);
  while (isoWeekday(day) > 5) day = addDays(day, -1);
  return day;
}

function nextSunday(): string {
  let day = addDays(today(), 1);
  while (isoWeekday(day) !== 7) day = addDays(day, 1);
  return day;
}

async function pageData(user: TestUser): Promise<AppointmentsPageData> {
  return loader(routeArgs(requestAs(user.cookie, "/paciente/citas")));
}

function post(user: TestUser, fields: Record<string, string>) {
  return settle<AppointmentActionResult>(() =>
    action(
      routeArgs(
        requestAs(user.cookie, "/paciente/citas", { method: "POST", body: new URLSearchParams(fields) }),
      ),
    ),
  );
}

function slots(cookie: string | undefined, query: Record<string, string>) {
  return settle<SlotsResponse>(() =>
    slotsLoader(routeArgs(requestAs(cookie, `/paciente/citas/horarios?${new URLSearchParams(query)}`))),
  );
}

async function appointmentRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(appointments).where(eq(appointments.id, id));
  return row;
}

const CLINIC_HEADLINES = {
  "Nueva cita agendada en línea.": "booked",
  "Cita reprogramada en línea.": "rescheduled",
  "Cita cancelada en línea.": "cancelled",
} as Record<string, string>;

/** The clinic's WhatsApp notices of an appointment, with the event read from their first line. */
async function notifications(appointmentId: string) {
  const db = await getDb();
  const rows = await db
    .select({ purpose: whatsAppMessages.purpose, text: whatsAppMessages.text })
    .from(whatsAppMessages)
    .where(
      and(
        eq(whatsAppMessages.purpose, "appointment-clinic"),
        eq(whatsAppMessages.appointmentId, appointmentId),
      ),
    );
  return rows.map((row) => ({ ...row, event: CLINIC_HEADLINES[row.text?.split("\n")[0] ?? ""] }));
}

async function appointmentsOf(patientId: string) {
  const db = await getDb();
  return db.select().from(appointments).where(eq(appointments.patientId, patientId));
}

describe("loader", () => {
  let patient: TestUser;
  let other: TestUser;
  let dentist: TestUser;

  beforeAll(async () => {
    [patient, other, dentist] = await Promise.all([
      createTestUser({ firstName: "Amalia" }),
      createTestUser({ firstName: "Otra" }),
      createTestUser({ roles: ["dentista"], firstName: "Inés" }),
    ]);
    const db = await getDb();
    await db
      .update(users)
      .set({ lastName: "Fuenzalida", phone: "+56912345678", professionalTitle: "dra" })
      .where(eq(users.id, dentist.id));
  });

  it("splits upcoming and history at the clinic's midnight and sorts both as the spec says", async () => {
    const base = { patientId: patient.id, dentistId: dentist.id };
    const d3 = weekdayAfter(3);
    const d10 = weekdayAfter(10);
    // Late yesterday in Santiago is already "today" in UTC: it still belongs to the history (DESIGN decision 8).
    const lateYesterday = await insertAppointment({
      ...base,
      slug: "consulta",
      startsAt: clinicInstant(addDays(today(), -1), "22:30"),
      status: "completed",
    });
    // The first instant of the clinic's today: always already started, whatever the time the test runs at (an
    // appointment at 00:15 had not started when the suite ran between midnight and 00:15 in Santiago).
    const earlyToday = await insertAppointment({
      ...base,
      slug: "consulta",
      startsAt: startOfClinicDay(today()),
    });
    const laterD3 = await insertAppointment({
      ...base,
      slug: "limpieza",
      startsAt: clinicInstant(d3, "10:00"),
    });
    const earlierD3 = await insertAppointment({
      ...base,
      slug: "implantes",
      startsAt: clinicInstant(d3, "08:00"),
      durationMinutes: 45,
      notes: "Traer exámenes.",
      status: "confirmed",
    });
    const d10Row = await insertAppointment({
      ...base,
      slug: "estetica",
      startsAt: clinicInstant(d10, "15:00"),
    });
    const oldLater = await insertAppointment({
      ...base,
      slug: "endodoncia",
      startsAt: clinicInstant(addDays(today(), -20), "11:00"),
      status: "no_show",
    });
    const oldEarlier = await insertAppointment({
      ...base,
      slug: "consulta",
      startsAt: clinicInstant(addDays(today(), -20), "09:00"),
      status: "cancelled",
    });
    // Someone else's appointment never shows up.
    await insertAppointment({
      patientId: other.id,
      dentistId: dentist.id,
      slug: "consulta",
      startsAt: clinicInstant(d3, "15:00"),
    });

    const data = await pageData(patient);
    expect(data.upcoming.map((card) => card.id)).toEqual([
      earlyToday.id,
      earlierD3.id,
      laterD3.id,
      d10Row.id,
    ]);
    expect(data.history.map((card) => card.id)).toEqual([lateYesterday.id, oldLater.id, oldEarlier.id]);

    const implant = data.upcoming[1]!;
    expect(implant).toMatchObject({
      status: "confirmed",
      treatmentName: "Implante dental",
      treatmentSlug: "implantes",
      treatmentDescription: "Instalación de implante de titanio planificada con escáner 3D.",
      date: d3,
      time: "08:00",
      // The appointment's own duration wins over the treatment's 90 minutes.
      durationMinutes: 45,
      dentistId: dentist.id,
      dentistName: "Dra. Inés Fuenzalida",
      dentistPhone: { href: "tel:+56912345678", label: "+56 9 1234 5678" },
      priceLabel: "$850.000",
      notes: "Traer exámenes.",
      actions: { confirm: false, reschedule: true, cancel: true, rescheduleHint: null },
      cancellation: {
        late: false,
        fee: 0,
        policyText: "Cancelar con 24 horas o más de anticipación no tiene costo.",
      },
    });
    const long = formatDateWithWeekday(d3);
    expect(implant.dateLabel).toBe(long.charAt(0).toUpperCase() + long.slice(1));
    // Without an own duration the treatment's applies.
    expect(data.upcoming[2]).toMatchObject({ durationMinutes: 45, time: "10:00", priceLabel: "$35.000" });
    expect(data.upcoming[2]!.actions).toEqual({
      confirm: true,
      reschedule: true,
      cancel: true,
      rescheduleHint: null,
    });
    // Today's appointment that already started: still upcoming, but nothing can be done online.
    expect(data.upcoming[0]!.actions).toEqual({
      confirm: false,
      reschedule: false,
      cancel: false,
      rescheduleHint: null,
    });
    for (const card of data.history) {
      expect(card.actions).toMatchObject({ confirm: false, reschedule: false, cancel: false });
      expect(card.cancellation).toBeNull();
    }
  });

  it("offers the treatments, the active dentists and the next 20 open days", async () => {
    // Read before the loader: the server's today is this day or, past midnight, a later one.
    const todayBefore = today();
    const data = await pageData(patient);
    expect(data.treatments.map((item) => item.slug)).toEqual(
      expect.arrayContaining(["consulta", "limpieza", "implantes", "estetica"]),
    );
    expect(data.treatments.find((item) => item.slug === "consulta")).toMatchObject({
      name: "Consulta y evaluación",
      durationMinutes: 30,
      priceLabel: "$25.000",
    });
    expect(data.dentists).toContainEqual({ id: dentist.id, name: "Dra. Inés Fuenzalida" });
    expect(data.dentists.some((item) => item.id === patient.id)).toBe(false);
    expect(data.openDays).toHaveLength(20);
    expect(data.openDays[0]!.date >= todayBefore).toBe(true);
    for (const day of data.openDays) expect(isoWeekday(day.date)).toBeLessThanOrEqual(5);
    const dates = data.openDays.map((day) => day.date);
    expect(dates.toSorted()).toEqual(dates);
  });

  it("sends anonymous visitors to /auth", async () => {
    const result = await settle(() => loader(routeArgs(requestAs(undefined, "/paciente/citas"))));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/auth?redirectTo=%2Fpaciente%2Fcitas");
  });
});

describe("another patient's appointment", () => {
  let owner: TestUser;
  let intruder: TestUser;
  let dentist: TestUser;

  beforeAll(async () => {
    [owner, intruder, dentist] = await Promise.all([
      createTestUser({ firstName: "Dueña" }),
      createTestUser({ firstName: "Intrusa" }),
      createTestUser({ roles: ["dentista"] }),
    ]);
  });

  it("cannot be read, cancelled, confirmed or rescheduled: 404 and nothing changes", async () => {
    const target = await insertAppointment({
      patientId: owner.id,
      dentistId: dentist.id,
      slug: "limpieza",
      startsAt: clinicInstant(weekdayAfter(5), "10:00"),
    });
    const before = await appointmentRow(target.id);

    const intruderData = await pageData(intruder);
    expect([...intruderData.upcoming, ...intruderData.history].some((card) => card.id === target.id)).toBe(
      false,
    );

    const attempts: Array<Record<string, string>> = [
      { intent: "cancel", appointmentId: target.id },
      { intent: "confirm", appointmentId: target.id },
      { intent: "reschedule", appointmentId: target.id, date: weekdayAfter(6), time: "11:00" },
      { intent: "cancel", appointmentId: randomUUID() },
      { intent: "confirm", appointmentId: randomUUID() },
      { intent: "reschedule", appointmentId: randomUUID(), date: weekdayAfter(6), time: "11:00" },
    ];
    for (const fields of attempts) {
      const result = await post(intruder, fields);
      expect({ fields, status: result.status, body: result.body }).toEqual({
        fields,
        status: 404,
        body: { ok: false, code: "NOT_FOUND", message: NOT_FOUND },
      });
    }
    expect(await appointmentRow(target.id)).toEqual(before);
    expect(await notifications(target.id)).toEqual([]);
  });
});

describe("policy rules enforced by the server", () => {
  let patient: TestUser;
  let dentist: TestUser;

  beforeAll(async () => {
    [patient, dentist] = await Promise.all([
      createTestUser({ firstName: "Regla" }),
      createTestUser({ roles: ["dentista"] }),
    ]);
  });

  it("refuses to cancel a past appointment", async () => {
    const past = await insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      slug: "consulta",
      startsAt: new Date(Date.now() - 48 * HOUR),
    });
    const result = await post(patient, { intent: "cancel", appointmentId: past.id });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      ok: false,
      code: "VALIDATION",
      message: "Las citas pasadas no se pueden cancelar.",
    });
    expect((await appointmentRow(past.id))?.status).toBe("scheduled");
    expect(await notifications(past.id)).toEqual([]);
  });

  it("records 50% of the treatment on a late cancellation and writes a clinic notification", async () => {
    const soon = await insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      slug: "implantes",
      startsAt: new Date(Date.now() + 5 * HOUR),
    });
    const card = (await pageData(patient)).upcoming.find((item) => item.id === soon.id);
    // The dialog's preview says what the server will do.
    expect(card?.cancellation).toMatchObject({ late: true, fee: 425_000, feeLabel: "$425.000" });
    expect(card?.cancellation?.policyText).toContain("50%");
    // Inside 24 hours rescheduling goes through the clinic.
    expect(card?.actions).toMatchObject({ reschedule: false, cancel: true });
    expect(card?.actions.rescheduleHint).toBe(
      "Faltan menos de 24 horas: para reprogramar, llama a la clínica.",
    );

    const result = await post(patient, { intent: "cancel", appointmentId: soon.id });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ ok: true, data: { intent: "cancel" } });
    expect((result.body as { message: string }).message).toContain("$425.000");
    const row = await appointmentRow(soon.id);
    expect(row).toMatchObject({ status: "cancelled", cancellationFee: 425_000 });
    expect(row?.cancelledAt).toBeInstanceOf(Date);
    const outboxRows = await notifications(soon.id);
    expect(outboxRows).toHaveLength(1);
    expect(outboxRows[0]).toMatchObject({ event: "cancelled" });
    expect(outboxRows[0]!.text).toContain("Cancelación tardía: cargo de $425.000.");

    const again = await post(patient, { intent: "cancel", appointmentId: soon.id });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      ok: false,
      code: "VALIDATION",
      message: "Esta cita ya no se puede cancelar.",
    });
  });

  it("cancels for free 24 hours or more ahead", async () => {
    const later = await insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      slug: "estetica",
      startsAt: clinicInstant(weekdayAfter(4), "15:00"),
    });
    const result = await post(patient, { intent: "cancel", appointmentId: later.id });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ ok: true, message: "Tu cita fue cancelada sin costo." });
    expect(await appointmentRow(later.id)).toMatchObject({ status: "cancelled", cancellationFee: 0 });
  });

  it("confirms a scheduled appointment once and refuses to confirm a confirmed one", async () => {
    const item = await insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      slug: "consulta",
      startsAt: clinicInstant(weekdayAfter(4), "09:00"),
    });
    const first = await post(patient, { intent: "confirm", appointmentId: item.id });
    expect(first.status).toBe(200);
    expect((await appointmentRow(item.id))?.status).toBe("confirmed");
    const second = await post(patient, { intent: "confirm", appointmentId: item.id });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({
      ok: false,
      code: "VALIDATION",
      message: "Solo las citas programadas se pueden confirmar.",
    });
    expect((await appointmentRow(item.id))?.status).toBe("confirmed");
  });

  it("refuses to reschedule inside 24 hours", async () => {
    const soon = await insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      slug: "consulta",
      startsAt: new Date(Date.now() + 3 * HOUR),
    });
    const result = await post(patient, {
      intent: "reschedule",
      appointmentId: soon.id,
      date: weekdayAfter(8),
      time: "10:00",
    });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      ok: false,
      code: "VALIDATION",
      message: "Faltan menos de 24 horas: para reprogramar, llama a la clínica.",
    });
    expect((await appointmentRow(soon.id))?.startsAt).toEqual(soon.startsAt);
  });

  it("refuses bookings in the past, on a Sunday, outside the slots or for an unknown treatment (400, no row)", async () => {
    const fresh = await createTestUser({ firstName: "Sinfilas" });
    const base = {
      intent: "book",
      treatment: "consulta",
      dentist: dentist.id,
      date: weekdayAfter(9),
      time: "10:00",
    };
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...base, date: pastWeekday() }, "No se puede agendar en una fecha pasada."],
      [{ ...base, date: nextSunday() }, "La clínica no atiende ese día. Elige otra fecha."],
      [
        { ...base, time: "13:00" },
        "Ese horario no está en la agenda de la clínica. Elige uno de los horarios libres.",
      ],
      [
        { ...base, time: "10:10" },
        "Ese horario no está en la agenda de la clínica. Elige uno de los horarios libres.",
      ],
      [
        { ...base, time: "07:00" },
        "Ese horario no está en la agenda de la clínica. Elige uno de los horarios libres.",
      ],
      [{ ...base, date: addDays(today(), 120) }, "Solo se puede agendar hasta 90 días hacia adelante."],
      [{ ...base, treatment: "blanqueamiento-lunar" }, "Elige un tratamiento de la lista."],
      [{ ...base, treatment: "<script>" }, "Elige un tratamiento de la lista."],
      [{ ...base, dentist: "no-existe" }, "Elige un dentista de la lista."],
      [{ ...base, dentist: patient.id }, "Elige un dentista de la lista."],
      [{ ...base, date: "2027-02-30" }, "Elige una fecha válida."],
      [{ ...base, time: "25:00" }, "Elige un horario válido."],
      [{ ...base, intent: "borrar" }, "La acción no es válida."],
    ];
    for (const [fields, message] of cases) {
      const result = await post(fresh, fields);
      expect({ fields, status: result.status, body: result.body }).toEqual({
        fields,
        status: 400,
        // Schema refusals also carry the message beside the field; the service's carry only the message.
        body: expect.objectContaining({ ok: false, code: "VALIDATION", message }),
      });
    }
    expect(await appointmentsOf(fresh.id)).toEqual([]);
  });
});

describe("booking, rescheduling and cancelling through the action", () => {
  let patient: TestUser;
  let rival: TestUser;
  let dentist: TestUser;

  beforeAll(async () => {
    [patient, rival, dentist] = await Promise.all([
      createTestUser({ firstName: "Reserva" }),
      createTestUser({ firstName: "Rival" }),
      createTestUser({ roles: ["dentista"], firstName: "Bruno", columns: { professionalTitle: "dr" } }),
    ]);
  });

  it("books a free slot, moves it to another free slot and cancels it, notifying the clinic each time", async () => {
    const date = weekdayAfter(12);
    const before = await slots(patient.cookie, {
      tratamiento: "consulta",
      dentista: dentist.id,
      fecha: date,
    });
    expect(before.status).toBe(200);
    const freeTimes = (before.body as Extract<SlotsResponse, { ok: true }>).data.slots.map(
      (slot) => slot.time,
    );
    expect(freeTimes).toContain("10:00");
    expect(freeTimes).not.toContain("12:30");

    const booked = await post(patient, {
      intent: "book",
      treatment: "consulta",
      dentist: dentist.id,
      date,
      time: "10:00",
      notes: "Primera visita.",
    });
    expect(booked.status).toBe(200);
    expect(booked.body).toMatchObject({ ok: true, data: { intent: "book" } });
    expect((booked.body as { message: string }).message).toContain("10:00");
    const [row] = await appointmentsOf(patient.id);
    expect(row).toMatchObject({
      dentistId: dentist.id,
      status: "scheduled",
      notes: "Primera visita.",
      startsAt: clinicInstant(date, "10:00"),
      endsAt: new Date(clinicInstant(date, "10:00").getTime() + 30 * 60_000),
    });
    expect((await notifications(row!.id)).map((item) => item.event)).toEqual(["booked"]);

    const card = (await pageData(patient)).upcoming.find((item) => item.id === row!.id);
    expect(card).toMatchObject({ status: "scheduled", time: "10:00", dentistName: "Dr. Bruno Test" });

    const after = await slots(patient.cookie, { tratamiento: "consulta", dentista: dentist.id, fecha: date });
    expect(
      (after.body as Extract<SlotsResponse, { ok: true }>).data.slots.map((slot) => slot.time),
    ).not.toContain("10:00");

    // The rival cannot take the same slot: a clear conflict.
    const taken = await post(rival, {
      intent: "book",
      treatment: "consulta",
      dentist: dentist.id,
      date,
      time: "10:00",
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ ok: false, code: "CONFLICT", message: SLOT_TAKEN });
    const rivalBooking = await post(rival, {
      intent: "book",
      treatment: "consulta",
      dentist: dentist.id,
      date,
      time: "14:00",
    });
    expect(rivalBooking.status).toBe(200);

    // Rescheduling onto the rival's time is a conflict; onto a free time it works.
    const clash = await post(patient, { intent: "reschedule", appointmentId: row!.id, date, time: "14:00" });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ ok: false, code: "CONFLICT", message: SLOT_TAKEN });
    const offGrid = await post(patient, {
      intent: "reschedule",
      appointmentId: row!.id,
      date,
      time: "12:30",
    });
    expect(offGrid.status).toBe(400);
    const moved = await post(patient, { intent: "reschedule", appointmentId: row!.id, date, time: "11:00" });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ ok: true, data: { intent: "reschedule" } });
    expect((await appointmentRow(row!.id))?.startsAt).toEqual(clinicInstant(date, "11:00"));

    const cancelled = await post(patient, { intent: "cancel", appointmentId: row!.id });
    expect(cancelled.status).toBe(200);
    expect(await appointmentRow(row!.id)).toMatchObject({ status: "cancelled", cancellationFee: 0 });
    expect((await notifications(row!.id)).map((item) => item.event).toSorted()).toEqual([
      "booked",
      "cancelled",
      "rescheduled",
    ]);
  });

  it("books with any dentist", async () => {
    const fresh = await createTestUser({ firstName: "Cualquiera" });
    const date = weekdayAfter(15);
    const free = await slots(fresh.cookie, { tratamiento: "limpieza", dentista: "any", fecha: date });
    const first = (free.body as Extract<SlotsResponse, { ok: true }>).data.slots[0]!.time;
    const result = await post(fresh, {
      intent: "book",
      treatment: "limpieza",
      dentist: "any",
      date,
      time: first,
    });
    expect(result.status).toBe(200);
    const [row] = await appointmentsOf(fresh.id);
    expect(row?.startsAt).toEqual(clinicInstant(date, first));
  });
});

describe("one slot, twenty patients at once", () => {
  let dentist: TestUser;
  let patients: TestUser[];

  beforeAll(async () => {
    dentist = await createTestUser({ roles: ["dentista"], firstName: "Concurrida" });
    patients = await Promise.all(
      Array.from({ length: 20 }, (_, index) => createTestUser({ firstName: `Paciente${index}` })),
    );
  }, 120_000);

  it("gives the slot to exactly one and a clear conflict to the other nineteen", async () => {
    const date = weekdayAfter(20);
    const results = await Promise.all(
      patients.map((patient) =>
        post(patient, { intent: "book", treatment: "consulta", dentist: dentist.id, date, time: "09:00" }),
      ),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    for (const result of results.filter((item) => item.status === 409)) {
      expect(result.body).toEqual({ ok: false, code: "CONFLICT", message: SLOT_TAKEN });
    }
    const db = await getDb();
    const rows = await db
      .select()
      .from(appointments)
      .where(and(eq(appointments.dentistId, dentist.id), ne(appointments.status, "cancelled")));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.startsAt).toEqual(clinicInstant(date, "09:00"));
    expect(await notifications(rows[0]!.id)).toHaveLength(1);
  }, 120_000);
});

describe("slots route", () => {
  let patient: TestUser;
  let dentist: TestUser;

  beforeAll(async () => {
    [patient, dentist] = await Promise.all([createTestUser(), createTestUser({ roles: ["dentista"] })]);
  });

  it("answers 302 to anonymous visitors", async () => {
    const result = await slots(undefined, {
      tratamiento: "consulta",
      dentista: "any",
      fecha: weekdayAfter(3),
    });
    expect(result.status).toBe(302);
    expect(result.location).toMatch(/^\/auth\?redirectTo=%2Fpaciente%2Fcitas%2Fhorarios/);
  });

  it("answers a Spanish 400 to bad input", async () => {
    const date = weekdayAfter(3);
    const cases: Array<[Record<string, string>, string]> = [
      [{ tratamiento: "consulta", dentista: dentist.id, fecha: "mañana" }, "Elige una fecha válida."],
      [{ tratamiento: "consulta", dentista: dentist.id }, "Elige una fecha válida."],
      [{ tratamiento: "no-existe", dentista: dentist.id, fecha: date }, "Elige un tratamiento de la lista."],
      [{ tratamiento: "consulta", dentista: "nadie", fecha: date }, "Elige un dentista de la lista."],
      [{ tratamiento: "consulta", dentista: "a b", fecha: date }, "Elige un dentista de la lista."],
    ];
    for (const [query, message] of cases) {
      const result = await slots(patient.cookie, query);
      expect({ query, status: result.status, body: result.body }).toEqual({
        query,
        status: 400,
        body: { ok: false, code: "VALIDATION", message },
      });
    }
  });

  it("lists the free times of a weekday and none on a Sunday or in the past", async () => {
    const date = weekdayAfter(3);
    const weekday = await slots(patient.cookie, {
      tratamiento: "consulta",
      dentista: dentist.id,
      fecha: date,
    });
    expect(weekday.status).toBe(200);
    expect(weekday.body).toMatchObject({ ok: true, data: { date } });
    const times = (weekday.body as Extract<SlotsResponse, { ok: true }>).data.slots.map((slot) => slot.time);
    expect(times[0]).toBe("09:00");
    expect(times).toContain("16:30");
    const sunday = await slots(patient.cookie, {
      tratamiento: "consulta",
      dentista: dentist.id,
      fecha: nextSunday(),
    });
    expect(sunday.body).toMatchObject({ ok: true, data: { slots: [] } });
    const past = await slots(patient.cookie, {
      tratamiento: "consulta",
      dentista: dentist.id,
      fecha: pastWeekday(),
    });
    expect(past.body).toMatchObject({ ok: true, data: { slots: [] } });
  });

  it("leaves out the times the patient already holds with another dentist, for that patient only (issue 24, item 3)", async () => {
    const [holder, bystander, elsewhere] = await Promise.all([
      createTestUser({ firstName: "Ocupada" }),
      createTestUser({ firstName: "Libre" }),
      createTestUser({ roles: ["dentista"], firstName: "Otro" }),
    ]);
    const date = weekdayAfter(4);
    // A 60-minute treatment at 10:00 with another dentist: 10:00 and 10:30 overlap it.
    await insertAppointment({
      patientId: holder.id,
      dentistId: elsewhere.id,
      slug: null,
      minutes: 60,
      startsAt: clinicInstant(date, "10:00"),
    });
    const timesFor = async (user: TestUser, dentista: string) => {
      const result = await slots(user.cookie, { tratamiento: "consulta", dentista, fecha: date });
      return (result.body as Extract<SlotsResponse, { ok: true }>).data.slots.map((slot) => slot.time);
    };
    for (const dentista of [dentist.id, "any"]) {
      const own = await timesFor(holder, dentista);
      expect(own).not.toContain("10:00");
      expect(own).not.toContain("10:30");
      expect(own).toContain("09:00");
      expect(own).toContain("11:00");
      // Someone else still sees those times: the patient's appointment does not take the other dentist's chair.
      expect(await timesFor(bystander, dentista)).toEqual(expect.arrayContaining(["10:00", "10:30"]));
    }
  });
});
