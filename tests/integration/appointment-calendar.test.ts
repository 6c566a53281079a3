import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { appointments, outbox } from "~/db/schema";
import { clinicInstant } from "~/domain/clinic-time";
import { notifyAppointment } from "~/features/appointments/appointment-notifications.server";
import { loader as calendarLoader } from "~/routes/_patient/appointment-calendar";
import { loader as appointmentsLoader } from "~/routes/_patient/appointments";
import { requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser, createWhatsAppPatient, insertAppointment, type TestUser } from "../setup/factories";

// Issue 23, ADR 039: 'Agregar al calendario' — the owner's .ics (UTC times, the clinic's address, an alarm), a 404
// for anyone else's appointment, the links on the Mis Citas card and in the booking e-mail.

afterAll(closeDb);

let dentist: TestUser;

beforeAll(async () => {
  dentist = await createTestUser({ roles: ["dentista"], firstName: "Inés" });
});

const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, "");

/** An appointment a week ahead of the real clock (the Mis Citas card offers the calendar only before the start). */
function aWeekAhead(hour: number) {
  const start = new Date(Date.now() + 7 * 86_400_000);
  start.setUTCHours(hour, 0, 0, 0);
  return start;
}

describe("the .ics download", () => {
  it("gives the owner their appointment's event; another patient, an unknown id and anonymous get nothing", async () => {
    const owner = await createWhatsAppPatient("Dueña");
    const other = await createWhatsAppPatient("Otra");
    const startsAt = clinicInstant("2031-09-08", "10:00");
    const { id } = await insertAppointment({
      patientId: owner.id,
      dentistId: dentist.id,
      slug: "limpieza",
      startsAt,
    });
    const path = `/paciente/citas/${id}/calendario.ics`;

    const own = await settle<string>(() =>
      calendarLoader(routeArgs(requestAs(owner.cookie, path), { appointmentId: id })),
    );
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(own.headers.get("content-disposition")).toBe('attachment; filename="cita-2031-09-08.ics"');
    expect(own.headers.get("cache-control")).toBe("private, no-store");
    const ics = unfolded(own.body);
    // 10:00 in Santiago on 8 September 2031 (summer time, UTC-3) is 13:00Z; a Limpieza lasts 45 minutes.
    expect(ics).toContain("DTSTART:20310908T130000Z");
    expect(ics).toContain("DTEND:20310908T134500Z");
    expect(ics).toContain("LOCATION:Av. Providencia 1234\\, piso 18");
    expect(ics).toContain("TRIGGER:-PT2H");

    // The attack: another patient's session with this appointment's id.
    const stolen = await settle(() =>
      calendarLoader(routeArgs(requestAs(other.cookie, path), { appointmentId: id })),
    );
    expect(stolen.status).toBe(404);
    expect(JSON.stringify(stolen.body)).not.toContain("BEGIN:VCALENDAR");
    const unknown = await settle(() =>
      calendarLoader(
        routeArgs(requestAs(owner.cookie, "/paciente/citas/x/calendario.ics"), {
          appointmentId: "00000000-0000-4000-8000-000000000000",
        }),
      ),
    );
    expect(unknown.status).toBe(404);
    const anonymous = await settle(() =>
      calendarLoader(routeArgs(requestAs(undefined, path), { appointmentId: id })),
    );
    expect(anonymous.status).not.toBe(200);
    expect(anonymous.location ?? "").toContain("/auth");

    // A cancelled appointment has no event to add.
    const db = await getDb();
    await db.update(appointments).set({ status: "cancelled" }).where(eq(appointments.id, id));
    const cancelled = await settle(() =>
      calendarLoader(routeArgs(requestAs(owner.cookie, path), { appointmentId: id })),
    );
    expect(cancelled.status).toBe(404);
  });
});

describe("the links on the Mis Citas card and in the booking e-mail", () => {
  it("the card of an upcoming appointment offers the .ics, Google Calendar and Outlook", async () => {
    const owner = await createWhatsAppPatient("Tarjeta");
    const startsAt = aWeekAhead(14);
    const { id } = await insertAppointment({
      patientId: owner.id,
      dentistId: dentist.id,
      slug: "limpieza",
      startsAt,
    });
    const page = await settle<{
      upcoming: { id: string; calendar: { icsUrl: string; googleUrl: string; outlookUrl: string } | null }[];
    }>(() => appointmentsLoader(routeArgs(requestAs(owner.cookie, "/paciente/citas"))));
    const card = page.body.upcoming.find((row) => row.id === id)!;
    expect(card.calendar).toMatchObject({ icsUrl: `/paciente/citas/${id}/calendario.ics` });
    expect(new URL(card.calendar!.googleUrl).host).toBe("calendar.google.com");
    expect(new URL(card.calendar!.outlookUrl).host).toBe("outlook.live.com");
  });

  it("the booking confirmation e-mail carries 'Agregar al calendario' with the three links", async () => {
    const owner = await createWhatsAppPatient("Correo");
    const startsAt = clinicInstant("2031-09-10", "11:00");
    const { id } = await insertAppointment({
      patientId: owner.id,
      dentistId: dentist.id,
      slug: "limpieza",
      startsAt,
    });
    const db = await getDb();
    await db.transaction((tx) =>
      notifyAppointment(tx, {
        event: "booked",
        appointmentId: id,
        patientId: owner.id,
        dentistId: dentist.id,
        treatment: "Limpieza dental",
        startsAt,
      }),
    );
    const [row] = await db
      .select()
      .from(outbox)
      .where(eq(outbox.idempotencyKey, `appointment:${id}:booked:email`));
    const payload = row!.payload as { to: string; subject: string; text: string; html: string };
    expect(row!.kind).toBe("email");
    expect(payload.to).toBe(owner.email);
    expect(payload.subject).toContain("Tu cita quedó agendada");
    expect(payload.text).toContain("miércoles, 10 de septiembre de 2031 a las 11:00");
    expect(payload.text).toContain("Agregar al calendario:");
    expect(payload.text).toContain(`/paciente/citas/${id}/calendario.ics`);
    expect(payload.html).toContain("calendar.google.com");
    expect(payload.html).toContain("outlook.live.com");
  });
});
