import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  appointmentReminders,
  appointments,
  auditLog,
  callbackRequests,
  clinicSettings,
  consents,
  formAssignments,
  whatsAppMessages,
} from "~/db/schema";
import { clinicInstant } from "~/domain/clinic-time";
import { nominalStepTime, type ReminderSequenceSettings } from "~/domain/reminder-sequence";
import type { AppointmentLinkView } from "~/features/reminders/appointment-link-types";
import { confirmAppointment } from "~/features/appointments/appointment-service.server";
import {
  actOnAppointmentLink,
  appointmentLinkPage,
} from "~/features/reminders/appointment-link-service.server";
import { queueDueReminders, runReminderPass } from "~/features/reminders/reminder-service.server";
import { accountSubject, withdrawConsent } from "~/features/consent/consent-service.server";
import {
  action as callbackAction,
  loader as callbackLoader,
} from "~/routes/_public/appointment-callback-link";
import { action as settingsAction, loader as settingsLoader } from "~/routes/_admin/reminder-settings";
import { loader as requestsLoader } from "~/routes/_admin/requests";
import {
  action as staffRequestsAction,
  loader as staffRequestsLoader,
} from "~/routes/_staff/callback-requests";
import { clientForm, clientGet, postAs, randomIp, requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { placeholdersToSend } from "../setup/queued-secrets";
import {
  createStaffMember,
  createTestUser,
  createWhatsAppPatient,
  insertAppointment,
  type TestUser,
} from "../setup/factories";

// Issue 23, ADR 039: the reminder sequence (48 h, 24 h, 2 h) — exactly once per step and start with two workers,
// stopped by a withdrawn consent or a cancellation, restarted by a reschedule, the 24 h step skipped once confirmed;
// the 'Necesito hablar con alguien' link; the admin's settings. Every time is injected.

afterAll(closeDb);

const BASE_URL = "https://clinica.example";
const HOUR = 3_600_000;
const ALL: ReminderSequenceSettings = { "48h": true, "24h": true, "2h": true };

let dentist: TestUser;
let otherDentist: TestUser;

beforeAll(async () => {
  dentist = await createTestUser({ roles: ["dentista"], firstName: "Inés" });
  otherDentist = await createTestUser({ roles: ["dentista"], firstName: "Pablo" });
});

async function appointmentAt(patientId: string, startsAt: Date, options: { other?: boolean } = {}) {
  const dentistId = options.other ? otherDentist.id : dentist.id;
  return (await insertAppointment({ patientId, dentistId, slug: "limpieza", startsAt, status: "scheduled" }))
    .id;
}

/** Two workers (or instances) at the same moment, with the given sequence; answers what each queued. */
async function twoWorkers(now: Date, settings: ReminderSequenceSettings = ALL) {
  const db = await getDb();
  return Promise.all([
    queueDueReminders(db, now, { baseUrl: BASE_URL, settings }),
    queueDueReminders(db, now, { baseUrl: BASE_URL, settings }),
  ]);
}

async function templatesOf(appointmentId: string) {
  const db = await getDb();
  const rows = await db
    .select({ name: whatsAppMessages.templateName, createdAt: whatsAppMessages.createdAt })
    .from(whatsAppMessages)
    .where(and(eq(whatsAppMessages.appointmentId, appointmentId), eq(whatsAppMessages.purpose, "reminder")));
  return rows.map((row) => row.name).toSorted();
}

async function stepsOf(appointmentId: string) {
  const db = await getDb();
  const rows = await db
    .select({
      step: appointmentReminders.step,
      startsAt: appointmentReminders.startsAt,
      skipped: appointmentReminders.skipped,
      messageId: appointmentReminders.messageId,
    })
    .from(appointmentReminders)
    .where(eq(appointmentReminders.appointmentId, appointmentId));
  return rows
    .map(
      (row) =>
        `${row.startsAt.toISOString()} ${row.step} ${row.messageId ? "sent" : `skipped:${row.skipped}`}`,
    )
    .toSorted();
}

const at = (step: "48h" | "24h" | "2h", start: Date) => nominalStepTime(step, start);

describe("the sequence", () => {
  it("sends each step exactly once at its time, also with two workers at once, and records every step once", async () => {
    const ana = await createWhatsAppPatient("Ana");
    const start = clinicInstant("2031-03-12", "10:00");
    const id = await appointmentAt(ana.id, start);

    expect(await twoWorkers(new Date(at("48h", start).getTime() - 60_000))).toEqual([0, 0]);
    expect((await twoWorkers(at("48h", start))).toSorted()).toEqual([0, 1]);
    expect((await twoWorkers(at("24h", start))).toSorted()).toEqual([0, 1]);
    expect((await twoWorkers(at("2h", start))).toSorted()).toEqual([0, 1]);
    // Later runs, again two at once, add nothing.
    expect(await twoWorkers(new Date(start.getTime() - HOUR))).toEqual([0, 0]);
    expect(await templatesOf(id)).toEqual([
      "recordatorio_cita",
      "recordatorio_cita_2h",
      "recordatorio_cita_48h",
    ]);
    expect(await stepsOf(id)).toEqual(
      ["48h", "24h", "2h"].map((step) => `${start.toISOString()} ${step} sent`).toSorted(),
    );

    // The 2 h message: "te esperamos", with the date and the clinic's address.
    const db = await getDb();
    const [sameDay] = await db
      .select({ placeholders: whatsAppMessages.templatePlaceholders })
      .from(whatsAppMessages)
      .where(
        and(
          eq(whatsAppMessages.appointmentId, id),
          eq(whatsAppMessages.templateName, "recordatorio_cita_2h"),
        ),
      );
    expect(sameDay!.placeholders!.slice(0, 3)).toEqual(["Ana", "miércoles, 12 de marzo de 2031", "10:00"]);
    expect(sameDay!.placeholders![3]).toContain("Providencia");
  });

  it("the 48 h step links the forms when the appointment has some still pending", async () => {
    const owner = await createWhatsAppPatient("Formas");
    const start = clinicInstant("2031-03-13", "11:00");
    const id = await appointmentAt(owner.id, start);
    const db = await getDb();
    await db
      .insert(formAssignments)
      .values([
        { appointmentId: id, patientId: owner.id, formSlug: "antecedentes-de-salud", status: "pendiente" },
      ]);
    await twoWorkers(at("48h", start));
    expect(await templatesOf(id)).toEqual(["recordatorio_cita_48h_formularios"]);
    const [message] = await db
      .select({ placeholders: whatsAppMessages.templatePlaceholders })
      .from(whatsAppMessages)
      .where(eq(whatsAppMessages.appointmentId, id));
    expect(message!.placeholders![3]).toBe(`${BASE_URL}/paciente/formularios`);
  });

  it("a withdrawn WhatsApp consent stops every later step (the ledger decides, even with the column still set)", async () => {
    const db = await getDb();
    const start = clinicInstant("2031-03-14", "10:00");
    // One withdraws in Mi Perfil (the ledger and its mirror column); the other only in the ledger.
    const profile = await createWhatsAppPatient("Retira");
    const ledgerOnly = await createWhatsAppPatient("Libro");
    const profileId = await appointmentAt(profile.id, start);
    const ledgerId = await appointmentAt(ledgerOnly.id, start, { other: true });
    await twoWorkers(at("48h", start));
    expect(await templatesOf(profileId)).toEqual(["recordatorio_cita_48h"]);
    expect(await templatesOf(ledgerId)).toEqual(["recordatorio_cita_48h"]);

    const withdrawnAt = new Date(at("48h", start).getTime() + HOUR);
    await withdrawConsent(db, {
      subject: await accountSubject(db, profile.id),
      purpose: "recordatorios_whatsapp",
      channel: "perfil",
      at: withdrawnAt,
    });
    await db.update(consents).set({ withdrawnAt }).where(eq(consents.userId, ledgerOnly.id));

    await twoWorkers(at("24h", start));
    await twoWorkers(at("2h", start));
    expect(await templatesOf(profileId)).toEqual(["recordatorio_cita_48h"]);
    expect(await templatesOf(ledgerId)).toEqual(["recordatorio_cita_48h"]);
    // The ledger-only withdrawal is seen at queue time: both later steps recorded as skipped for want of consent.
    expect(await stepsOf(ledgerId)).toEqual(
      [
        `${start.toISOString()} 48h sent`,
        `${start.toISOString()} 24h skipped:no_consent`,
        `${start.toISOString()} 2h skipped:no_consent`,
      ].toSorted(),
    );
  });

  it("a cancellation stops the sequence; a reschedule restarts it for the new start", async () => {
    const db = await getDb();
    const cancelledOwner = await createWhatsAppPatient("Cancela");
    const movedOwner = await createWhatsAppPatient("Mueve");
    const start = clinicInstant("2031-03-17", "10:00");
    const cancelled = await appointmentAt(cancelledOwner.id, start);
    const moved = await appointmentAt(movedOwner.id, start, { other: true });
    await twoWorkers(at("48h", start));

    await db.update(appointments).set({ status: "cancelled" }).where(eq(appointments.id, cancelled));
    const newStart = clinicInstant("2031-03-19", "15:00");
    await db
      .update(appointments)
      .set({ startsAt: newStart, endsAt: new Date(newStart.getTime() + 45 * 60_000) })
      .where(eq(appointments.id, moved));

    for (const step of ["24h", "2h"] as const) await twoWorkers(at(step, start));
    for (const step of ["48h", "24h", "2h"] as const) await twoWorkers(at(step, newStart));

    expect(await templatesOf(cancelled)).toEqual(["recordatorio_cita_48h"]);
    expect(await templatesOf(moved)).toEqual([
      "recordatorio_cita",
      "recordatorio_cita_2h",
      "recordatorio_cita_48h",
      "recordatorio_cita_48h",
    ]);
    expect(await stepsOf(moved)).toEqual(
      [
        `${start.toISOString()} 48h sent`,
        `${newStart.toISOString()} 48h sent`,
        `${newStart.toISOString()} 24h sent`,
        `${newStart.toISOString()} 2h sent`,
      ].toSorted(),
    );
  });

  it("a confirmed appointment skips the 24 h confirmation request and keeps the 2 h message", async () => {
    const owner = await createWhatsAppPatient("Confirma");
    const start = clinicInstant("2031-03-20", "10:00");
    const id = await appointmentAt(owner.id, start);
    await twoWorkers(at("48h", start));
    const db = await getDb();
    const confirmedAt = new Date(at("48h", start).getTime() + HOUR);
    await confirmAppointment(db, owner.id, id, confirmedAt);
    const [row] = await db
      .select({ status: appointments.status, confirmedAt: appointments.confirmedAt })
      .from(appointments)
      .where(eq(appointments.id, id));
    expect(row).toEqual({ status: "confirmed", confirmedAt });

    await twoWorkers(at("24h", start));
    await twoWorkers(at("2h", start));
    expect(await templatesOf(id)).toEqual(["recordatorio_cita_2h", "recordatorio_cita_48h"]);
    expect(await stepsOf(id)).toContain(`${start.toISOString()} 24h skipped:confirmed`);
  });

  it("the clinic's settings: a step switched off is not sent", async () => {
    const owner = await createWhatsAppPatient("Ajuste");
    const start = clinicInstant("2031-03-21", "10:00");
    const id = await appointmentAt(owner.id, start);
    const only24: ReminderSequenceSettings = { "48h": false, "24h": true, "2h": false };
    for (const step of ["48h", "24h", "2h"] as const) await twoWorkers(at(step, start), only24);
    expect(await templatesOf(id)).toEqual(["recordatorio_cita"]);
    const result = await runReminderPass(await getDb(), start, { baseUrl: BASE_URL, settings: only24 });
    expect(result).toEqual({ queued: 0, skipped: 0 });

    // A step switched off after it was handled does not hide the steps still to come.
    const later = await createWhatsAppPatient("Cambio");
    const laterStart = clinicInstant("2031-03-24", "10:00");
    const laterId = await appointmentAt(later.id, laterStart);
    await twoWorkers(at("48h", laterStart), ALL);
    const only2h: ReminderSequenceSettings = { "48h": false, "24h": false, "2h": true };
    await twoWorkers(at("24h", laterStart), only2h);
    expect((await twoWorkers(at("2h", laterStart), only2h)).toSorted()).toEqual([0, 1]);
    expect(await templatesOf(laterId)).toEqual(["recordatorio_cita_2h", "recordatorio_cita_48h"]);
  });
});

async function callbackToken(appointmentId: string) {
  const db = await getDb();
  const [message] = await db
    .select({ id: whatsAppMessages.id })
    .from(whatsAppMessages)
    .where(
      and(
        eq(whatsAppMessages.appointmentId, appointmentId),
        eq(whatsAppMessages.templateName, "recordatorio_cita"),
      ),
    );
  const placeholders = await placeholdersToSend(message!.id);
  const prefix = `${BASE_URL}/cita/hablar/`;
  expect(placeholders[5]!.startsWith(prefix)).toBe(true);
  return placeholders[5]!.slice(prefix.length);
}

describe("'Necesito hablar con alguien'", () => {
  it("creates one callback request from the reminder, which the request list shows; the link is single-use", async () => {
    const owner = await createWhatsAppPatient("Llamada");
    const start = clinicInstant("2031-04-02", "10:00");
    const id = await appointmentAt(owner.id, start);
    await twoWorkers(at("24h", start));
    const token = await callbackToken(id);
    const path = `/cita/hablar/${token}`;

    // GET shows and changes nothing (scanners open links).
    const shown = await settle<AppointmentLinkView>(() =>
      callbackLoader(routeArgs(clientGet(path), { token })),
    );
    expect(shown.status).toBe(200);
    expect(shown.headers.get("referrer-policy")).toBe("no-referrer");
    expect(shown.body).toMatchObject({ action: "callback", state: "ready" });
    const db = await getDb();
    const requestsOf = () => db.select().from(callbackRequests).where(eq(callbackRequests.appointmentId, id));
    expect(await requestsOf()).toEqual([]);

    // Two posts at once: one request.
    const posts = await Promise.all([
      settle<AppointmentLinkView>(() => callbackAction(routeArgs(clientForm(path, {}), { token }))),
      settle<AppointmentLinkView>(() => callbackAction(routeArgs(clientForm(path, {}), { token }))),
    ]);
    expect(posts.map((post) => post.status).toSorted()).toEqual([200, 409]);
    const done = posts.find((post) => post.status === 200)!;
    expect(done.body).toMatchObject({ state: "done" });
    expect(done.body.message).toContain("te llamará");
    const requests = await requestsOf();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      source: "recordatorio",
      userId: owner.id,
      appointmentId: id,
      status: "new",
      name: "Llamada Test",
    });
    expect(requests[0]!.reason).toContain("10:00");

    // A third use: used, no new request.
    const again = await settle<AppointmentLinkView>(() =>
      callbackAction(routeArgs(clientForm(path, {}), { token })),
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("Ya recibimos tu solicitud");
    expect(await requestsOf()).toHaveLength(1);

    // Audited like the other links, with the patient as the subject.
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetUserId, owner.id), eq(auditLog.action, "appointment.callback_by_link")));
    expect(audit).toHaveLength(1);

    // The clinic sees it in the request list, marked as coming from a reminder.
    const admin = await createStaffMember(["admin"]);
    const list = await settle<{ callbacks: { id: string; sourceLabel: string }[] }>(() =>
      requestsLoader(routeArgs(requestAs(admin.cookie, "/admin/solicitudes"))),
    );
    expect(list.body.callbacks.find((row) => row.id === requests[0]!.id)).toMatchObject({
      sourceLabel: "Recordatorio de cita",
    });

    // The asesores see it at once too (/funnel/solicitudes) and can take it; a patient cannot open the list.
    const asesor = await createStaffMember(["asesor"]);
    const staffList = await settle<{ callbacks: { id: string; sourceLabel: string }[] }>(() =>
      staffRequestsLoader(routeArgs(requestAs(asesor.cookie, "/funnel/solicitudes"))),
    );
    expect(staffList.status).toBe(200);
    expect(staffList.body.callbacks.find((row) => row.id === requests[0]!.id)).toMatchObject({
      sourceLabel: "Recordatorio de cita",
    });
    const taken = await settle(() =>
      staffRequestsAction(
        routeArgs(
          postAs(asesor.cookie, "/funnel/solicitudes", {
            kind: "callback",
            requestId: requests[0]!.id,
            status: "in_progress",
          }),
        ),
      ),
    );
    expect(taken.status).toBe(200);
    expect((await requestsOf())[0]!.status).toBe("in_progress");
    const refused = await settle(() =>
      staffRequestsLoader(routeArgs(requestAs(owner.cookie, "/funnel/solicitudes"))),
    );
    expect(refused.status).toBe(403);
  });

  it("a forged token, the confirm link's token and a cancelled appointment's link create nothing", async () => {
    const owner = await createWhatsAppPatient("Falsa");
    const start = clinicInstant("2031-04-03", "10:00");
    const id = await appointmentAt(owner.id, start);
    await twoWorkers(at("24h", start));
    const token = await callbackToken(id);
    const db = await getDb();
    const use = { writer: { ip: randomIp() }, ip: "203.0.113.9" };
    const forged = await actOnAppointmentLink(
      db,
      "callback",
      `${token.slice(0, -2)}xx`,
      use,
      at("24h", start),
    );
    expect(forged.status).toBe(404);
    await db.update(appointments).set({ status: "cancelled" }).where(eq(appointments.id, id));
    const closed = await appointmentLinkPage(db, "callback", token, at("24h", start));
    expect(closed.view).toMatchObject({ state: "closed" });
    const refused = await actOnAppointmentLink(db, "callback", token, use, at("24h", start));
    expect(refused.status).toBe(409);
    expect(await db.select().from(callbackRequests).where(eq(callbackRequests.appointmentId, id))).toEqual(
      [],
    );
  });
});

describe("/admin/recordatorios", () => {
  it("refuses a patient and an asesor in the loader and the action; an admin saves, audited, and the job follows", async () => {
    const patient = await createWhatsAppPatient("Paciente");
    const asesor = await createStaffMember(["asesor"]);
    for (const user of [patient, asesor]) {
      const loaded = await settle(() =>
        settingsLoader(routeArgs(requestAs(user.cookie, "/admin/recordatorios"))),
      );
      expect(loaded.status).toBe(403);
      const posted = await settle(() =>
        settingsAction(routeArgs(postAs(user.cookie, "/admin/recordatorios", { "24h": "on" }))),
      );
      expect(posted.status).toBe(403);
    }
    const db = await getDb();
    expect(await db.select().from(clinicSettings).where(eq(clinicSettings.key, "reminder_sequence"))).toEqual(
      [],
    );

    const admin = await createStaffMember(["admin"]);
    const before = await settle<{ settings: ReminderSequenceSettings }>(() =>
      settingsLoader(routeArgs(requestAs(admin.cookie, "/admin/recordatorios"))),
    );
    expect(before.body.settings).toEqual(ALL);
    try {
      // Only 24 h ticked: 48 h and 2 h off.
      const saved = await settle(() =>
        settingsAction(routeArgs(postAs(admin.cookie, "/admin/recordatorios", { "24h": "on" }))),
      );
      expect(saved.status).toBe(200);
      const after = await settle<{ settings: ReminderSequenceSettings }>(() =>
        settingsLoader(routeArgs(requestAs(admin.cookie, "/admin/recordatorios"))),
      );
      expect(after.body.settings).toEqual({ "48h": false, "24h": true, "2h": false });
      const [audit] = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, admin.id), eq(auditLog.action, "settings.reminder_sequence")));
      expect(audit!.details).toEqual({ before: ALL, after: { "48h": false, "24h": true, "2h": false } });

      // The job reads the stored sequence when none is given.
      const owner = await createWhatsAppPatient("Guardado");
      const start = clinicInstant("2031-05-06", "10:00");
      const id = await appointmentAt(owner.id, start);
      await queueDueReminders(db, at("48h", start), { baseUrl: BASE_URL });
      await queueDueReminders(db, at("24h", start), { baseUrl: BASE_URL });
      await queueDueReminders(db, at("2h", start), { baseUrl: BASE_URL });
      expect(await templatesOf(id)).toEqual(["recordatorio_cita"]);
    } finally {
      await db.delete(clinicSettings).where(eq(clinicSettings.key, "reminder_sequence"));
    }
  });
});
