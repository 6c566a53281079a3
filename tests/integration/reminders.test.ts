import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  appointmentActionTokens,
  appointmentReminders,
  appointments,
  auditLog,
  outbox,
  treatmentsCatalog,
  users,
} from "~/db/schema";
import { clinicInstant } from "~/domain/clinic-time";
import { reminderDueAt } from "~/domain/reminder-schedule";
import type { AppointmentLinkView } from "~/features/reminders/appointment-link-types";
import {
  actOnAppointmentLink,
  appointmentLinkPage,
} from "~/features/reminders/appointment-link-service.server";
import { queueDueReminders } from "~/features/reminders/reminder-service.server";
import { action as cancelAction, loader as cancelLoader } from "~/routes/_public/appointment-cancel-link";
import { action as confirmAction, loader as confirmLoader } from "~/routes/_public/appointment-confirm-link";
import { whatsAppMessages } from "~/db/schema";
import { clientForm, clientGet, randomIp } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { placeholdersToSend } from "../setup/queued-secrets";
import { createTestUser, createWhatsAppPatient, insertAppointment, type TestUser } from "../setup/factories";

// ADR 018: reminders 24 hours before (the same wall-clock time the day before, in Santiago), exactly once also with
// two workers at once, only with the patient's consent, and their single-use 'Confirmar' / 'Cancelar' links. Since
// issue 23 (ADR 039) the 24 h message is one step of a sequence: tests/integration/reminder-sequence.test.ts covers
// the others; here the sequence is the clinic's default (48 h, 24 h, 2 h). Every time is injected.

afterAll(closeDb);

const BASE_URL = "https://clinica.example";
const HOUR = 3_600_000;
const LIMPIEZA_PRICE = 35_000;

let dentist: TestUser;

beforeAll(async () => {
  dentist = await createTestUser({
    roles: ["dentista"],
    firstName: "Inés",
    columns: { professionalTitle: "dra" },
  });
  const db = await getDb();
  const [limpieza] = await db
    .select({ price: treatmentsCatalog.basePrice })
    .from(treatmentsCatalog)
    .where(eq(treatmentsCatalog.slug, "limpieza"));
  if (limpieza!.price !== LIMPIEZA_PRICE) throw new Error("the fee expectations assume Limpieza's price");
});

/** A patient with a mobile phone who agreed (or not) to WhatsApp messages. */
const patient = (firstName: string, consent = true) => createWhatsAppPatient(firstName, { consent });

/** A Limpieza (45 minutes) with this file's dentist. */
async function appointmentAt(patientId: string, startsAt: Date, status = "scheduled") {
  const row = await insertAppointment({
    patientId,
    dentistId: dentist.id,
    slug: "limpieza",
    startsAt,
    status,
  });
  return row.id;
}

/** The 24 h reminders (the confirmation request) of an appointment. */
async function remindersOf(appointmentId: string) {
  const db = await getDb();
  return db
    .select()
    .from(whatsAppMessages)
    .where(
      and(
        eq(whatsAppMessages.appointmentId, appointmentId),
        eq(whatsAppMessages.purpose, "reminder"),
        eq(whatsAppMessages.templateName, "recordatorio_cita"),
      ),
    );
}

/** Every reminder step queued for an appointment, by template name. */
async function allRemindersOf(appointmentId: string) {
  const db = await getDb();
  const rows = await db
    .select({ templateName: whatsAppMessages.templateName })
    .from(whatsAppMessages)
    .where(and(eq(whatsAppMessages.appointmentId, appointmentId), eq(whatsAppMessages.purpose, "reminder")));
  return rows.map((row) => row.templateName).toSorted();
}

async function statusOf(appointmentId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ status: appointments.status, fee: appointments.cancellationFee })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  return row!;
}

/** Runs the job like two workers (or instances) at the same moment; answers how many reminders each queued. */
async function twoWorkers(now: Date) {
  const db = await getDb();
  return Promise.all([
    queueDueReminders(db, now, { baseUrl: BASE_URL }),
    queueDueReminders(db, now, { baseUrl: BASE_URL }),
  ]);
}

function tokenOf(url: string, segment: string) {
  const prefix = `${BASE_URL}/cita/${segment}/`;
  expect(url.startsWith(prefix)).toBe(true);
  return url.slice(prefix.length);
}

/** The raw tokens of a reminder's three links, as the queued template will send them (stored: "[oculto]"). */
async function linksOf(appointmentId: string) {
  const [message] = await remindersOf(appointmentId);
  expect(message!.templatePlaceholders!.slice(3)).toEqual(["[oculto]", "[oculto]", "[oculto]"]);
  const placeholders = await placeholdersToSend(message!.id);
  return {
    confirm: tokenOf(placeholders[3]!, "confirmar"),
    cancel: tokenOf(placeholders[4]!, "cancelar"),
    callback: tokenOf(placeholders[5]!, "hablar"),
  };
}

/** A patient's appointment whose reminder (and so its two links) was queued. */
async function remindedAppointment(firstName: string, startsAt: Date) {
  const owner = await patient(firstName);
  const id = await appointmentAt(owner.id, startsAt);
  await twoWorkers(reminderDueAt(startsAt));
  return { owner, id, links: await linksOf(id) };
}

const forgedToken = () => randomBytes(32).toString("base64url");

describe("the reminder job", () => {
  it("queues exactly one template message per due appointment, also with two workers at once, to the patient only", async () => {
    const ana = await patient("Ana");
    const startsAt = clinicInstant("2030-03-14", "10:00");
    const id = await appointmentAt(ana.id, startsAt);
    const due = reminderDueAt(startsAt);
    expect(due.toISOString()).toBe(clinicInstant("2030-03-13", "10:00").toISOString());

    // A minute before its time: nothing.
    expect(await twoWorkers(new Date(due.getTime() - 60_000))).toEqual([0, 0]);
    expect(await remindersOf(id)).toEqual([]);

    const counts = await twoWorkers(due);
    expect(counts.toSorted()).toEqual([0, 1]);
    const messages = await remindersOf(id);
    expect(messages).toHaveLength(1);
    const db = await getDb();
    const [phone] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, ana.id));
    expect(messages[0]).toMatchObject({
      kind: "template",
      templateName: "recordatorio_cita",
      toPhone: phone!.phone!.replace("+", ""),
      userId: ana.id,
      status: "queued",
    });
    const placeholders = messages[0]!.templatePlaceholders!;
    expect(placeholders.slice(0, 3)).toEqual(["Ana", "jueves, 14 de marzo de 2030", "10:00"]);
    // One outbox row of kind whatsapp, keyed by the appointment and its start.
    const rows = await db.select().from(outbox).where(eq(outbox.id, messages[0]!.id));
    expect(rows.map((row) => [row.kind, row.idempotencyKey])).toEqual([
      ["whatsapp", `reminder:${id}:${startsAt.toISOString()}`],
    ]);
    // Nobody else gets a copy: the only message of this appointment is the patient's reminder (the 48 h step was
    // covered by this one, which was already due when the job first saw it a minute earlier).
    expect(
      await db.select().from(whatsAppMessages).where(eq(whatsAppMessages.appointmentId, id)),
    ).toHaveLength(1);

    // Three tokens, stored as hashes only: the raw tokens of the links appear nowhere in the table.
    const links = await linksOf(id);
    const tokens = await db
      .select()
      .from(appointmentActionTokens)
      .where(eq(appointmentActionTokens.appointmentId, id));
    expect(tokens.map((token) => token.action).toSorted()).toEqual(["callback", "cancel", "confirm"]);
    for (const token of tokens) {
      expect(token.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect([links.confirm, links.cancel, links.callback]).not.toContain(token.tokenHash);
      expect(token.expiresAt.toISOString()).toBe(startsAt.toISOString());
      expect(token.usedAt).toBeNull();
    }

    // Later runs add nothing.
    expect(await twoWorkers(new Date(due.getTime() + 10 * 60_000))).toEqual([0, 0]);
    expect(await remindersOf(id)).toHaveLength(1);
  });

  it("sends none without consent, none for a cancelled appointment, no confirmation request within two hours of the start", async () => {
    const without = await patient("Sinpermiso", false);
    const cancelledOwner = await patient("Cancelada");
    const startsAt = clinicInstant("2030-03-15", "11:00");
    const noConsent = await appointmentAt(without.id, startsAt);
    const cancelled = await appointmentAt(
      cancelledOwner.id,
      clinicInstant("2030-03-15", "12:00"),
      "cancelled",
    );
    const late = await appointmentAt(cancelledOwner.id, clinicInstant("2030-03-14", "14:00"));
    // 13:00 on the 14th: both appointments of the 15th are due, the one of 14:00 is an hour away.
    await twoWorkers(clinicInstant("2030-03-14", "13:00"));
    expect(await allRemindersOf(noConsent)).toEqual([]);
    expect(await allRemindersOf(cancelled)).toEqual([]);
    // An hour ahead: no "confirm or cancel", only the 2 h step's "te esperamos" (ADR 039).
    expect(await allRemindersOf(late)).toEqual(["recordatorio_cita_2h"]);
  });

  it("a booking a few hours ahead gets the 2 h message, not a confirmation request as well; without the 2 h step, the request", async () => {
    const owner = await patient("Tarde");
    const startsAt = clinicInstant("2030-03-20", "16:00");
    const now = new Date(startsAt.getTime() - 5 * HOUR);
    const id = await appointmentAt(owner.id, startsAt);
    expect(await twoWorkers(now)).toEqual([0, 0]);
    expect((await twoWorkers(new Date(startsAt.getTime() - 2 * HOUR))).toSorted()).toEqual([0, 1]);
    expect(await allRemindersOf(id)).toEqual(["recordatorio_cita_2h"]);

    const other = await patient("Tarde2");
    const otherStart = clinicInstant("2030-03-21", "16:00");
    const otherId = await appointmentAt(other.id, otherStart);
    const db = await getDb();
    const no2h = { "48h": true, "24h": true, "2h": false };
    const counts = await Promise.all([
      queueDueReminders(db, new Date(otherStart.getTime() - 5 * HOUR), { baseUrl: BASE_URL, settings: no2h }),
      queueDueReminders(db, new Date(otherStart.getTime() - 5 * HOUR), { baseUrl: BASE_URL, settings: no2h }),
    ]);
    expect(counts.toSorted()).toEqual([0, 1]);
    expect(await allRemindersOf(otherId)).toEqual(["recordatorio_cita"]);
  });

  it("reminds at the same wall-clock time the day before across both 2026 clock changes (25 h in April, 23 h in September)", async () => {
    const april = await patient("Abril");
    const september = await patient("Septiembre");
    // Sunday 5 April 2026, 10:00 winter time (14:00Z): the clocks went back that night.
    const aprilStart = clinicInstant("2026-04-05", "10:00");
    const aprilId = await appointmentAt(april.id, aprilStart);
    // Sunday 6 September 2026, 10:00 summer time (13:00Z): the clocks went forward that night.
    const septemberStart = clinicInstant("2026-09-06", "10:00");
    const septemberId = await appointmentAt(september.id, septemberStart);

    // April: due on Saturday at 10:00 summer time (13:00Z), 25 absolute hours before; a minute earlier, nothing.
    expect(await twoWorkers(new Date(aprilStart.getTime() - 25 * HOUR - 60_000))).toEqual([0, 0]);
    expect((await twoWorkers(new Date("2026-04-04T13:00:00Z"))).toSorted()).toEqual([0, 1]);
    expect(await remindersOf(aprilId)).toHaveLength(1);

    // September: 24 absolute hours before is Saturday 09:00 on the clock; not yet. Saturday 10:00 (23 h before): due.
    expect(await twoWorkers(new Date(septemberStart.getTime() - 24 * HOUR))).toEqual([0, 0]);
    expect(await twoWorkers(new Date("2026-09-05T13:59:00Z"))).toEqual([0, 0]);
    expect((await twoWorkers(new Date("2026-09-05T14:00:00Z"))).toSorted()).toEqual([0, 1]);
    const [message] = await remindersOf(septemberId);
    expect(message!.templatePlaceholders!.slice(1, 3)).toEqual(["domingo, 6 de septiembre de 2026", "10:00"]);
  });

  it("a rescheduled appointment is reminded again for its new time, and the old links stop working", async () => {
    const owner = await patient("Rosa");
    const first = clinicInstant("2030-04-02", "09:00");
    const id = await appointmentAt(owner.id, first);
    await twoWorkers(reminderDueAt(first));
    const oldLinks = await linksOf(id);

    const moved = clinicInstant("2030-04-03", "15:00");
    const db = await getDb();
    await db
      .update(appointments)
      .set({ startsAt: moved, endsAt: new Date(moved.getTime() + 45 * 60_000) })
      .where(eq(appointments.id, id));
    expect((await twoWorkers(reminderDueAt(moved))).toSorted()).toEqual([0, 1]);
    expect(await remindersOf(id)).toHaveLength(2);
    const claims = await db
      .select({ startsAt: appointmentReminders.startsAt, step: appointmentReminders.step })
      .from(appointmentReminders)
      .where(and(eq(appointmentReminders.appointmentId, id), eq(appointmentReminders.step, "24h")));
    expect(claims.map((claim) => claim.startsAt.toISOString()).toSorted()).toEqual(
      [first.toISOString(), moved.toISOString()].toSorted(),
    );

    const page = await appointmentLinkPage(db, "confirm", oldLinks.confirm, reminderDueAt(moved));
    expect(page.status).toBe(410);
    expect(page.view.message).toContain("cambió de horario");
  });
});

describe("the reminder's links", () => {
  it("refuse forged, malformed and crossed tokens with a Spanish 404, and change nothing", async () => {
    const { id, links } = await remindedAppointment("Falsa", clinicInstant("2030-05-06", "10:00"));
    for (const token of [forgedToken(), "abc", `${links.confirm}x`]) {
      const shown = await settle<AppointmentLinkView>(() =>
        confirmLoader(routeArgs(clientGet(`/cita/confirmar/${token}`), { token })),
      );
      expect(shown.status).toBe(404);
      expect(shown.body).toMatchObject({ state: "invalid" });
      expect(shown.body.message).toContain("Este enlace no es válido");
      expect(shown.body.appointment).toBeUndefined();
      const posted = await settle<AppointmentLinkView>(() =>
        confirmAction(routeArgs(clientForm(`/cita/confirmar/${token}`, {}), { token })),
      );
      expect(posted.status).toBe(404);
    }
    // The cancel token does not confirm, and the confirm token does not cancel.
    const crossed = await settle<AppointmentLinkView>(() =>
      confirmAction(routeArgs(clientForm(`/cita/confirmar/${links.cancel}`, {}), { token: links.cancel })),
    );
    expect(crossed.status).toBe(404);
    const crossedCancel = await settle<AppointmentLinkView>(() =>
      cancelAction(routeArgs(clientForm(`/cita/cancelar/${links.confirm}`, {}), { token: links.confirm })),
    );
    expect(crossedCancel.status).toBe(404);
    expect(await statusOf(id)).toEqual({ status: "scheduled", fee: null });
  });

  it("confirm: GET shows and changes nothing; POST confirms once; a second use says it was used; cancel still works", async () => {
    const { owner, id, links } = await remindedAppointment("Clara", clinicInstant("2030-05-07", "10:00"));
    const path = `/cita/confirmar/${links.confirm}`;

    const shown = await settle<AppointmentLinkView>(() =>
      confirmLoader(routeArgs(clientGet(path), { token: links.confirm })),
    );
    expect(shown.status).toBe(200);
    expect(shown.headers.get("cache-control")).toBe("no-store");
    expect(shown.body).toMatchObject({
      action: "confirm",
      state: "ready",
      appointment: {
        date: "Martes, 7 de mayo de 2030",
        time: "10:00",
        treatment: "Limpieza dental",
        dentist: "Dra. Inés Test",
        statusLabel: "Programada",
      },
    });
    // Prefetching the page (as WhatsApp's and mail scanners do) twice changes nothing.
    await settle(() => confirmLoader(routeArgs(clientGet(path), { token: links.confirm })));
    expect(await statusOf(id)).toEqual({ status: "scheduled", fee: null });

    const confirmed = await settle<AppointmentLinkView>(() =>
      confirmAction(routeArgs(clientForm(path, {}), { token: links.confirm })),
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ state: "done", appointment: { statusLabel: "Confirmada" } });
    expect(confirmed.body.message).toContain("Tu cita quedó confirmada");
    expect(await statusOf(id)).toEqual({ status: "confirmed", fee: null });

    const again = await settle<AppointmentLinkView>(() =>
      confirmAction(routeArgs(clientForm(path, {}), { token: links.confirm })),
    );
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ state: "used" });
    expect(again.body.message).toBe("Este enlace ya se usó para confirmar tu cita; no vuelve a actuar.");
    const revisited = await settle<AppointmentLinkView>(() =>
      confirmLoader(routeArgs(clientGet(path), { token: links.confirm })),
    );
    expect(revisited.body).toMatchObject({ state: "used", appointment: { statusLabel: "Confirmada" } });

    // The audit log records the change, with no signed-in actor and the patient as its subject.
    const db = await getDb();
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetUserId, owner.id), eq(auditLog.action, "appointment.confirmed_by_link")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: null, details: { appointmentId: id } });

    // Using the confirm link did not use up the cancel link (free: more than 24 hours ahead by the real clock).
    const cancelPath = `/cita/cancelar/${links.cancel}`;
    const policy = await settle<AppointmentLinkView>(() =>
      cancelLoader(routeArgs(clientGet(cancelPath), { token: links.cancel })),
    );
    expect(policy.body).toMatchObject({ state: "ready", policy: { late: false, fee: 0 } });
    expect(policy.body.policy!.text).toBe("Cancelar con 24 horas o más de anticipación no tiene costo.");
    const cancelled = await settle<AppointmentLinkView>(() =>
      cancelAction(routeArgs(clientForm(cancelPath, { fee: "0" }), { token: links.cancel })),
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: "done", message: "Tu cita fue cancelada, sin costo." });
    expect(await statusOf(id)).toEqual({ status: "cancelled", fee: 0 });
  });

  it("cancel under 24 hours: the page shows the 50% fee first, the POST applies it; an already cancelled appointment cannot be confirmed", async () => {
    const startsAt = clinicInstant("2030-05-08", "10:00");
    const { id, links } = await remindedAppointment("Tardía", startsAt);
    const db = await getDb();
    const now = new Date(startsAt.getTime() - 20 * HOUR);

    const page = await appointmentLinkPage(db, "cancel", links.cancel, now);
    expect(page.status).toBe(200);
    expect(page.view.policy).toEqual({
      late: true,
      fee: LIMPIEZA_PRICE / 2,
      text: "Faltan menos de 24 horas para tu cita: según nuestra política, cancelar ahora tiene un cargo del 50% del tratamiento ($17.500).",
    });
    expect(await statusOf(id)).toEqual({ status: "scheduled", fee: null });

    const use = { writer: { ip: randomIp() }, ip: "203.0.113.9" };
    const done = await actOnAppointmentLink(db, "cancel", links.cancel, { ...use, shownFee: 17_500 }, now);
    expect(done.status).toBe(200);
    expect(done.view.message).toBe(
      "Tu cita fue cancelada. Según nuestra política, se registró un cargo de $17.500 (50% del tratamiento).",
    );
    expect(await statusOf(id)).toEqual({ status: "cancelled", fee: 17_500 });
    // The appointment service's cancellation notices went out with it (patient and clinic).
    const notices = await db
      .select({ purpose: whatsAppMessages.purpose })
      .from(whatsAppMessages)
      .where(eq(whatsAppMessages.appointmentId, id));
    expect(notices.map((notice) => notice.purpose).toSorted()).toEqual([
      "appointment-clinic",
      "appointment-patient",
      "reminder",
    ]);

    // Cancelled: the confirm link cannot confirm it, and stays unused.
    const refused = await actOnAppointmentLink(db, "confirm", links.confirm, use, now);
    expect(refused.status).toBe(409);
    expect(refused.view).toMatchObject({ state: "closed" });
    expect(refused.view.message).toContain("no se puede confirmar");
    expect(await statusOf(id)).toEqual({ status: "cancelled", fee: 17_500 });

    // A second use of the cancel link acts no more.
    const second = await actOnAppointmentLink(db, "cancel", links.cancel, use, now);
    expect(second.status).toBe(409);
    expect(second.view.message).toBe("Este enlace ya se usó para cancelar tu cita; no vuelve a actuar.");
  });

  it("a cancellation whose fee changed since the page was shown is not made; the links expire at the start", async () => {
    const startsAt = clinicInstant("2030-05-09", "10:00");
    const { id, links } = await remindedAppointment("Borde", startsAt);
    const db = await getDb();
    const use = { writer: { ip: randomIp() }, ip: "203.0.113.9" };

    // Shown free at 24 h 05 min; posted at 23 h 55 min, when it would cost 50%.
    const shown = await appointmentLinkPage(
      db,
      "cancel",
      links.cancel,
      new Date(startsAt.getTime() - 24 * HOUR - 5 * 60_000),
    );
    expect(shown.view.policy).toMatchObject({ late: false, fee: 0 });
    const later = new Date(startsAt.getTime() - 24 * HOUR + 5 * 60_000);
    const refused = await actOnAppointmentLink(db, "cancel", links.cancel, { ...use, shownFee: 0 }, later);
    expect(refused.status).toBe(409);
    expect(refused.view).toMatchObject({ state: "ready", policy: { late: true, fee: 17_500 } });
    expect(refused.view.notice).toContain("cambió");
    expect(await statusOf(id)).toEqual({ status: "scheduled", fee: null });

    // At the start the links expire: 410, nothing done.
    const expired = await actOnAppointmentLink(db, "confirm", links.confirm, use, startsAt);
    expect(expired.status).toBe(410);
    expect(expired.view.message).toBe("Este enlace expiró: vencía al comenzar la cita.");
    expect(await statusOf(id)).toEqual({ status: "scheduled", fee: null });
  });

  it("two uses of one link at the same moment: one acts, the other is told it was used", async () => {
    const startsAt = clinicInstant("2030-05-10", "10:00");
    const { id, links } = await remindedAppointment("Doble", startsAt);
    const db = await getDb();
    const now = new Date(startsAt.getTime() - 30 * HOUR);
    const use = { writer: { ip: randomIp() }, ip: "203.0.113.9" };
    const results = await Promise.all([
      actOnAppointmentLink(db, "confirm", links.confirm, use, now),
      actOnAppointmentLink(db, "confirm", links.confirm, use, now),
    ]);
    expect(results.map((result) => result.status).toSorted()).toEqual([200, 409]);
    expect(await statusOf(id)).toEqual({ status: "confirmed", fee: null });
  });

  it("POSTs are rate-limited per client address like other public writes, forged ones included", async () => {
    const ip = randomIp();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const token = forgedToken();
      const result = await settle(() =>
        confirmAction(routeArgs(clientForm(`/cita/confirmar/${token}`, {}, { ip }), { token })),
      );
      expect(result.status).toBe(404);
    }
    const token = forgedToken();
    const limited = await settle<AppointmentLinkView>(() =>
      confirmAction(routeArgs(clientForm(`/cita/confirmar/${token}`, {}, { ip }), { token })),
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.body.notice).toContain("Recibimos demasiadas solicitudes");
  });
});
