import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { appointments, outbox, whatsAppMessages } from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { formatDateWithWeekday } from "~/domain/format";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import type { AppointmentActionResult } from "~/features/appointments/appointment-schema";
import type { ProfileActionData } from "~/features/profile/profile-schema";
import { deliverDue } from "~/features/outbox/outbox.server";
import { outboxHandlers } from "~/jobs/outbox-worker.server";
import { action as appointmentsAction } from "~/routes/_patient/appointments";
import { action as profileAction } from "~/routes/_patient/profile";
import { postAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser, type TestUser } from "../setup/users";

// A booking, reschedule or cancellation queues its WhatsApp messages in its own transaction, to the
// patient only with their consent from Mi Perfil, and always to the clinic's WhatsApp number.

afterAll(closeDb);

const CLINIC_NUMBER = "56987654321";
const SLOT_TAKEN =
  "Ese horario ya no está disponible: alguien lo tomó hace un momento. Elige otro, por favor.";

function weekdayAfter(offset: number): string {
  return openDays(addDays(clinicDate(new Date()), offset), 1, DEFAULT_WEEK)[0]!;
}

const longDate = (date: string) => formatDateWithWeekday(date);

function post(user: TestUser, fields: Record<string, string>) {
  return settle<AppointmentActionResult>(() =>
    appointmentsAction(routeArgs(postAs(user.cookie, "/paciente/citas", fields))),
  );
}

async function saveProfile(user: TestUser, fields: Record<string, string>) {
  const result = await settle<ProfileActionData>(() =>
    profileAction(routeArgs(postAs(user.cookie, "/paciente/perfil", fields))),
  );
  expect(result.status).toBe(200);
}

/** A patient with a mobile phone, who agreed (or not) to WhatsApp messages in Mi Perfil. */
async function patientWith(firstName: string, phone: string, optIn: boolean) {
  const patient = await createTestUser({ firstName });
  await saveProfile(patient, {
    firstName,
    lastName: "Paredes",
    phone,
    ...(optIn ? { whatsappOptIn: "on" } : {}),
  });
  return patient;
}

async function messagesOf(appointmentId: string) {
  const db = await getDb();
  return db
    .select()
    .from(whatsAppMessages)
    .where(eq(whatsAppMessages.appointmentId, appointmentId))
    .orderBy(whatsAppMessages.createdAt);
}

async function messagesOfUser(userId: string) {
  const db = await getDb();
  return db.select().from(whatsAppMessages).where(eq(whatsAppMessages.userId, userId));
}

async function bookedId(patient: TestUser) {
  const db = await getDb();
  const [row] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(eq(appointments.patientId, patient.id));
  if (!row) throw new Error("no appointment");
  return row.id;
}

describe("WhatsApp notices of appointments", () => {
  let dentist: TestUser;

  beforeAll(async () => {
    dentist = await createTestUser({
      roles: ["dentista"],
      firstName: "Inés",
      columns: { professionalTitle: "dra" },
    });
  });

  it("a consenting patient's booking queues exactly two messages, the patient's and the clinic's, with the outbox rows", async () => {
    const patient = await patientWith("Ana", "9 1234 5601", true);
    const date = weekdayAfter(5);
    const booked = await post(patient, {
      intent: "book",
      treatment: "consulta",
      dentist: dentist.id,
      date,
      time: "10:00",
    });
    expect(booked.status).toBe(200);
    const id = await bookedId(patient);

    const messages = await messagesOf(id);
    expect(messages).toHaveLength(2);
    const toPatient = messages.find((message) => message.purpose === "appointment-patient");
    const toClinic = messages.find((message) => message.purpose === "appointment-clinic");
    expect(toPatient).toMatchObject({
      toPhone: "56912345601",
      userId: patient.id,
      kind: "text",
      status: "queued",
      text: `Hola Ana, tu cita de Consulta y evaluación con Dra. Inés Test quedó agendada para el ${longDate(date)} a las 10:00. Río Clínica.`,
    });
    expect(toClinic).toMatchObject({ toPhone: CLINIC_NUMBER, userId: patient.id, status: "queued" });
    expect(toClinic!.text).toContain("Nueva cita agendada en línea.");
    expect(toClinic!.text).toContain("Paciente: Ana Paredes (+56 9 1234 5601).");
    expect(toClinic!.text).toContain("Consulta y evaluación, con Dra. Inés Test.");
    expect(toClinic!.text).toContain(`${longDate(date)} a las 10:00`);

    // Each message is an outbox row of kind whatsapp with the same id, waiting for the worker.
    const db = await getDb();
    const rows = await db
      .select({ id: outbox.id, kind: outbox.kind, status: outbox.status, payload: outbox.payload })
      .from(outbox)
      .where(
        inArray(
          outbox.id,
          messages.map((message) => message.id),
        ),
      );
    expect(rows.toSorted((a, b) => a.id.localeCompare(b.id))).toEqual(
      messages
        .map((message) => ({
          id: message.id,
          kind: "whatsapp",
          status: "pending",
          payload: { purpose: message.purpose },
        }))
        .toSorted((a, b) => a.id.localeCompare(b.id)),
    );
    // The old undelivered kind is gone.
    expect(await db.select().from(outbox).where(eq(outbox.kind, "clinic-notification"))).toEqual([]);

    // A booking that fails (the slot is taken) queues nothing, for either recipient.
    const rival = await patientWith("Rival", "9 1234 5602", true);
    const countBefore = (await db.select({ id: whatsAppMessages.id }).from(whatsAppMessages)).length;
    const taken = await post(rival, {
      intent: "book",
      treatment: "consulta",
      dentist: dentist.id,
      date,
      time: "10:00",
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ ok: false, code: "CONFLICT", message: SLOT_TAKEN });
    expect(await messagesOfUser(rival.id)).toEqual([]);
    expect((await db.select({ id: whatsAppMessages.id }).from(whatsAppMessages)).length).toBe(countBefore);
  });

  it("a patient without consent gets nothing; the clinic still gets its notice", async () => {
    const patient = await patientWith("Sinconsentimiento", "9 1234 5603", false);
    const booked = await post(patient, {
      intent: "book",
      treatment: "consulta",
      dentist: dentist.id,
      date: weekdayAfter(6),
      time: "11:00",
    });
    expect(booked.status).toBe(200);
    const messages = await messagesOf(await bookedId(patient));
    expect(messages.map((message) => [message.purpose, message.toPhone])).toEqual([
      ["appointment-clinic", CLINIC_NUMBER],
    ]);
  });

  it("reschedule and cancellation send their own texts, once per event; a refused repeat adds none", async () => {
    const patient = await patientWith("Rosa", "+56 9 1234 5604", true);
    const date = weekdayAfter(8);
    expect(
      (
        await post(patient, {
          intent: "book",
          treatment: "consulta",
          dentist: dentist.id,
          date,
          time: "09:00",
        })
      ).status,
    ).toBe(200);
    const id = await bookedId(patient);

    expect(
      (await post(patient, { intent: "reschedule", appointmentId: id, date, time: "15:00" })).status,
    ).toBe(200);
    // Moved again: its own event, its own messages.
    expect(
      (await post(patient, { intent: "reschedule", appointmentId: id, date, time: "16:00" })).status,
    ).toBe(200);
    // The same move again is refused by the service: no message.
    expect(
      (await post(patient, { intent: "reschedule", appointmentId: id, date, time: "16:00" })).status,
    ).toBe(400);
    expect((await post(patient, { intent: "cancel", appointmentId: id })).status).toBe(200);
    expect((await post(patient, { intent: "cancel", appointmentId: id })).status).toBe(400);

    const patientTexts = (await messagesOf(id))
      .filter((message) => message.purpose === "appointment-patient")
      .map((message) => message.text);
    const day = longDate(date);
    expect(patientTexts.toSorted()).toEqual(
      [
        `Hola Rosa, tu cita de Consulta y evaluación con Dra. Inés Test quedó agendada para el ${day} a las 09:00. Río Clínica.`,
        `Hola Rosa, tu cita de Consulta y evaluación con Dra. Inés Test fue reprogramada para el ${day} a las 15:00. Río Clínica.`,
        `Hola Rosa, tu cita de Consulta y evaluación con Dra. Inés Test fue reprogramada para el ${day} a las 16:00. Río Clínica.`,
        `Hola Rosa, tu cita de Consulta y evaluación con Dra. Inés Test del ${day} a las 16:00 fue cancelada. Río Clínica.`,
      ].toSorted(),
    );
    const clinicTexts = (await messagesOf(id))
      .filter((message) => message.purpose === "appointment-clinic")
      .map((message) => message.text ?? "");
    expect(clinicTexts).toHaveLength(4);
    expect(clinicTexts.filter((text) => text.startsWith("Cita reprogramada en línea."))).toHaveLength(2);
    expect(clinicTexts.find((text) => text.includes("Ahora:") && text.includes("16:00"))).toContain(
      `Antes: ${day} a las 15:00.`,
    );
    expect(clinicTexts.filter((text) => text.startsWith("Cita cancelada en línea."))).toHaveLength(1);
  });

  it("the worker delivers them with the real handlers: accepted, in test mode without an API key", async () => {
    const patient = await patientWith("Entrega", "9 1234 5605", true);
    expect(
      (
        await post(patient, {
          intent: "book",
          treatment: "consulta",
          dentist: dentist.id,
          date: weekdayAfter(9),
          time: "14:00",
        })
      ).status,
    ).toBe(200);
    const id = await bookedId(patient);
    const db = await getDb();
    while ((await deliverDue(db, outboxHandlers())) > 0) {
      // until nothing is due
    }
    const messages = await messagesOf(id);
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      expect(message).toMatchObject({ status: "accepted", testMode: true });
      expect(message.acceptedAt).toBeInstanceOf(Date);
    }
    const rows = await db
      .select({ status: outbox.status, via: outbox.deliveredVia })
      .from(outbox)
      .where(
        and(
          eq(outbox.kind, "whatsapp"),
          inArray(
            outbox.id,
            messages.map((message) => message.id),
          ),
        ),
      );
    expect(rows).toEqual([
      { status: "sent", via: "whatsapp-test-mode" },
      { status: "sent", via: "whatsapp-test-mode" },
    ]);
  });
});
