import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { consents, leads, outbox, users, whatsAppMessages } from "~/db/schema";
import { PROFILING_OBJECTED_LABEL } from "~/domain/consent-rules";
import { addDays, clinicDate, clinicInstant } from "~/domain/clinic-time";
import { reminderDueAt } from "~/domain/reminder-schedule";
import {
  accountSubject,
  contactSubject,
  giveConsent,
  listConsents,
  mayContact,
  withdrawConsent,
} from "~/features/consent/consent-service.server";
import type { MyDataPageDto } from "~/features/consent/my-data-dto";
import type { MyDataActionData } from "~/features/consent/my-data-schema";
import { objectToProfiling, withdrawProfilingObjection } from "~/features/consent/profiling-service.server";
import { addRestriction } from "~/features/consent/restrictions.server";
import { createWhatsAppOutboxHandler } from "~/features/messaging/whatsapp-outbox.server";
import { deliverDue } from "~/features/outbox/outbox.server";
import { queueDueReminders } from "~/features/reminders/reminder-service.server";
import { action as leadAction } from "~/routes/_public/home";
import { action as accountAction, loader as accountLoader } from "~/routes/_account/my-data";
import { action as patientAction, loader as patientLoader } from "~/routes/_patient/my-data";
import { loader as leadPageLoader } from "~/routes/_staff/lead-detail";
import { clientForm, clientGet, uniqueEmail, uniquePhone } from "../setup/clients";
import {
  createStaffMember,
  createTestUser,
  createWhatsAppPatient,
  insertAppointment,
  leadFormFields,
  type TestUser,
} from "../setup/factories";
import { routeArgs, unwrap } from "../setup/route-args";
import { settle } from "../setup/route-results";

// The consent ledger, mayContact, the objection to profiling and Mis Datos (ADR 037). Each attack is written as the
// attack: a foreign id, no session, the wrong role.

afterAll(closeDb);

let dentist: TestUser;
beforeAll(async () => {
  dentist = await createTestUser({ roles: ["dentista"], firstName: "Inés" });
});

async function whatsAppConsentRows(userId: string) {
  const db = await getDb();
  return db
    .select()
    .from(consents)
    .where(and(eq(consents.userId, userId), eq(consents.purpose, "recordatorios_whatsapp")));
}

async function optInOf(userId: string) {
  const db = await getDb();
  const [row] = await db.select({ at: users.whatsappOptInAt }).from(users).where(eq(users.id, userId));
  return row!.at;
}

async function postMyData(
  path: "/paciente/datos" | "/cuenta/datos",
  cookie: string,
  fields: Record<string, string>,
) {
  const handler = path === "/paciente/datos" ? patientAction : accountAction;
  return settle<MyDataActionData>(() => handler(routeArgs(clientForm(path, fields, { cookie }))));
}

async function myDataPage(path: "/paciente/datos" | "/cuenta/datos", cookie: string) {
  const handler = path === "/paciente/datos" ? patientLoader : accountLoader;
  return settle<{ page: MyDataPageDto }>(() => handler(routeArgs(clientGet(path, { cookie }))));
}

describe("the ledger", () => {
  it("records a consent once while it is in force, withdraws it through every contact, mirrors the opt-in", async () => {
    const db = await getDb();
    const patient = await createTestUser({ columns: { phone: uniquePhone() } });
    const subject = await accountSubject(db, patient.id);
    expect(subject.userId).toBe(patient.id);
    expect(subject.emails).toEqual([patient.email.toLowerCase()]);

    const first = await giveConsent(db, { subject, purpose: "recordatorios_whatsapp", channel: "perfil" });
    expect(first).toMatchObject({ purpose: "recordatorios_whatsapp", textVersion: "v1", channel: "perfil" });
    expect(
      await giveConsent(db, { subject, purpose: "recordatorios_whatsapp", channel: "perfil" }),
    ).toBeNull();
    expect(await optInOf(patient.id)).toBeInstanceOf(Date);
    expect((await mayContact(db, subject, "recordatorios_whatsapp")).allowed).toBe(true);

    expect(
      await withdrawConsent(db, { subject, purpose: "recordatorios_whatsapp", channel: "mis_datos" }),
    ).toBe(1);
    expect(await optInOf(patient.id)).toBeNull();
    expect(await mayContact(db, subject, "recordatorios_whatsapp")).toEqual({
      allowed: false,
      reason: "consentimiento_retirado",
    });
    const rows = await listConsents(db, subject);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ withdrawnChannel: "mis_datos" });
    expect(rows[0]!.withdrawnAt).toBeInstanceOf(Date);
  });

  it("mayContact: no consent, a block in force, a marketing objection", async () => {
    const db = await getDb();
    const subject = contactSubject({ emails: [uniqueEmail("ledger")], phones: [uniquePhone()] });
    expect(await mayContact(db, subject, "datos_contacto")).toEqual({
      allowed: false,
      reason: "sin_consentimiento",
    });
    await giveConsent(db, { subject, purpose: "datos_contacto", channel: "formulario_web" });
    await giveConsent(db, { subject, purpose: "marketing", channel: "mis_datos" });
    expect((await mayContact(db, subject, "datos_contacto")).allowed).toBe(true);
    await addRestriction(db, { kind: "marketing", subject });
    expect((await mayContact(db, subject, "marketing")).reason).toBe("oposicion_marketing");
    expect((await mayContact(db, subject, "datos_contacto")).allowed).toBe(true);
    // A block found through the phone alone stops contact; what the law requires still goes.
    await addRestriction(db, { kind: "bloqueo", subject: contactSubject({ phones: subject.phones }) });
    expect((await mayContact(db, subject, "datos_contacto")).reason).toBe("bloqueo");
    expect((await mayContact(db, subject, "obligacion_legal")).allowed).toBe(true);
  });
});

describe("reminders follow the ledger", () => {
  it("withdrawn WhatsApp consent stops a queued reminder", async () => {
    const db = await getDb();
    const kept = await createWhatsAppPatient("Clara");
    const withdrawing = await createWhatsAppPatient("Rosa");
    // At 10:00 on the clinic's clock, so that no step of the sequence falls in quiet hours whatever time the test runs.
    const startsAt = daytimeInDays(3);
    // Two dentists' chairs at the same time, so both reminders fall due at the same moment.
    const otherDentist = await createTestUser({ roles: ["dentista"], firstName: "Tomás" });
    const keptAppointment = await insertAppointment({
      patientId: kept.id,
      dentistId: otherDentist.id,
      slug: "limpieza",
      startsAt,
    });
    const withdrawnAppointment = await insertAppointment({
      patientId: withdrawing.id,
      dentistId: dentist.id,
      slug: "limpieza",
      startsAt,
    });
    expect(await queueDueReminders(db, reminderDueAt(startsAt), { baseUrl: "https://clinica.example" })).toBe(
      2,
    );
    const reminderOf = async (appointmentId: string) => {
      const [row] = await db
        .select()
        .from(whatsAppMessages)
        .where(
          and(eq(whatsAppMessages.appointmentId, appointmentId), eq(whatsAppMessages.purpose, "reminder")),
        );
      return row!;
    };
    expect((await reminderOf(withdrawnAppointment.id)).status).toBe("queued");

    // After queueing, before sending: the patient withdraws on Mis Datos.
    const page = await myDataPage("/paciente/datos", withdrawing.cookie);
    const whatsapp = page.body.page.consents.purposes.find((p) => p.purpose === "recordatorios_whatsapp")!;
    expect(whatsapp.state).toBe("vigente");
    const posted = await postMyData("/paciente/datos", withdrawing.cookie, {
      intent: "retirar",
      consentId: whatsapp.withdrawId!,
    });
    expect(posted.status).toBe(200);

    await deliverDue(db, { whatsapp: createWhatsAppOutboxHandler({ db }) });
    const stopped = await reminderOf(withdrawnAppointment.id);
    expect(stopped.status).toBe("failed");
    expect(stopped.error).toMatch(/^CONSENT_WITHDRAWN: /);
    expect(stopped.acceptedAt).toBeNull();
    const [row] = await db.select().from(outbox).where(eq(outbox.id, stopped.id));
    expect(row!.status).toBe("failed");
    // The other patient's reminder, consent in force, went out.
    expect((await reminderOf(keptAppointment.id)).status).toBe("accepted");
  });

  it("a reminder is not even queued once the consent is withdrawn (also with the opt-in column left set)", async () => {
    const db = await getDb();
    const patient = await createWhatsAppPatient("Marta");
    const startsAt = daytimeInDays(4);
    await insertAppointment({ patientId: patient.id, dentistId: dentist.id, slug: "limpieza", startsAt });
    await withdrawConsent(db, {
      subject: await accountSubject(db, patient.id),
      purpose: "recordatorios_whatsapp",
      channel: "mis_datos",
    });
    // Whatever the mirror says, the ledger decides.
    await db.update(users).set({ whatsappOptInAt: new Date() }).where(eq(users.id, patient.id));
    expect(await queueDueReminders(db, reminderDueAt(startsAt), { baseUrl: "https://clinica.example" })).toBe(
      0,
    );
  });
});

/** 10:00 on the clinic's clock `days` calendar days from today: in the future and outside quiet hours. */
function daytimeInDays(days: number): Date {
  return clinicInstant(addDays(clinicDate(new Date()), days), "10:00");
}

async function submitLead(fields: Record<string, string>) {
  return unwrap<{ ok: boolean }>(await leadAction(routeArgs(clientForm("/?index", fields))));
}
async function leadsOf(phone: string) {
  const db = await getDb();
  return db.select().from(leads).where(eq(leads.phone, phone));
}

describe("objection to profiling", () => {
  it("flags the person's old leads, leaves a new one unscored, and staff read 'Sin puntaje'", async () => {
    const db = await getDb();
    const email = uniqueEmail("objeta");
    const phone = uniquePhone();
    await submitLead(leadFormFields({ email, phone }));
    const [old] = await leadsOf(phone);
    expect(old).toMatchObject({ score: 100, level: "hot", profilingObjectedAt: null });
    // The lead form recorded its consent in the ledger.
    const subject = contactSubject({ emails: [email], phones: [phone] });
    expect((await listConsents(db, subject)).map((row) => [row.purpose, row.channel, row.leadId])).toEqual([
      ["datos_contacto", "formulario_web", old!.id],
    ]);

    const { leadsMarked } = await objectToProfiling(db, contactSubject({ emails: [email.toUpperCase()] }));
    expect(leadsMarked).toBe(1);
    const [flagged] = await leadsOf(phone);
    expect(flagged).toMatchObject({ score: 0, level: "cold", reasons: [] });
    expect(flagged!.profilingObjectedAt).toBeInstanceOf(Date);

    // The same person again (the old lead closed), by phone only: a new lead, unscored.
    await db.update(leads).set({ status: "lost", lostReason: "otro" }).where(eq(leads.id, old!.id));
    const secondPhone = uniquePhone();
    await objectToProfiling(db, contactSubject({ phones: [secondPhone] }));
    await submitLead(leadFormFields({ phone: secondPhone }));
    const [fresh] = await leadsOf(secondPhone);
    expect(fresh).toMatchObject({ score: 0, level: "cold", reasons: [] });
    expect(fresh!.profilingObjectedAt).toBeInstanceOf(Date);
    // The advisor's WhatsApp notice names no level or score.
    const [notice] = await db
      .select({ text: whatsAppMessages.text })
      .from(whatsAppMessages)
      .where(and(eq(whatsAppMessages.leadId, fresh!.id), eq(whatsAppMessages.purpose, "lead-advisor")));
    expect(notice!.text).toContain(PROFILING_OBJECTED_LABEL);
    expect(notice!.text).not.toMatch(/puntos/);

    const asesor = await createStaffMember(["asesor"]);
    const page = await settle<{ lead: { profilingObjected: boolean } }>(() =>
      leadPageLoader(
        routeArgs(clientGet(`/funnel/leads/${fresh!.id}`, { cookie: asesor.cookie }), { id: fresh!.id }),
      ),
    );
    expect(page.status).toBe(200);
    expect(page.body.lead.profilingObjected).toBe(true);

    // Withdrawn: the leads get their score back from their own answers.
    expect(
      (await withdrawProfilingObjection(db, contactSubject({ phones: [secondPhone] }))).leadsRescored,
    ).toBe(1);
    const [rescored] = await leadsOf(secondPhone);
    expect(rescored).toMatchObject({ score: 100, level: "hot", profilingObjectedAt: null });
  });

  it("Mis Datos' switch objects and withdraws for the account's own e-mail", async () => {
    const db = await getDb();
    const patient = await createTestUser();
    await submitLead(leadFormFields({ email: patient.email, phone: uniquePhone() }));
    const objected = await postMyData("/paciente/datos", patient.cookie, { intent: "oponerse" });
    expect(objected.status).toBe(200);
    const [lead] = await db.select().from(leads).where(eq(leads.email, patient.email));
    expect(lead!.profilingObjectedAt).toBeInstanceOf(Date);
    expect((await myDataPage("/paciente/datos", patient.cookie)).body.page.profiling.objected).toBe(true);
    await postMyData("/paciente/datos", patient.cookie, { intent: "retirar-oposicion" });
    expect((await myDataPage("/paciente/datos", patient.cookie)).body.page.profiling.objected).toBe(false);
  });
});

describe("Mis Datos", () => {
  it("lists each consent with its text version, channel and state, and gives and withdraws by switch", async () => {
    const patient = await createWhatsAppPatient("Lucía");
    const { status, body } = await myDataPage("/paciente/datos", patient.cookie);
    expect(status).toBe(200);
    const whatsapp = body.page.consents.purposes.find((p) => p.purpose === "recordatorios_whatsapp")!;
    expect(whatsapp).toMatchObject({
      label: "Recordatorios y avisos de mis citas por WhatsApp",
      state: "vigente",
    });
    expect(whatsapp.entries[0]).toMatchObject({
      version: "v1",
      text: "Recibir recordatorios y avisos de mis citas por WhatsApp",
      channelLabel: "Mi Perfil",
      stateLabel: "Vigente",
    });

    await postMyData("/paciente/datos", patient.cookie, {
      intent: "retirar",
      consentId: whatsapp.withdrawId!,
    });
    const after = (await myDataPage("/paciente/datos", patient.cookie)).body.page.consents.purposes[0]!;
    expect(after).toMatchObject({ purpose: "recordatorios_whatsapp", state: "retirado", withdrawId: null });
    const again = await postMyData("/paciente/datos", patient.cookie, {
      intent: "otorgar",
      purpose: "recordatorios_whatsapp",
    });
    expect(again.body).toMatchObject({ ok: true });
    expect(await whatsAppConsentRows(patient.id)).toHaveLength(2);
    expect(await optInOf(patient.id)).toBeInstanceOf(Date);
  });

  it("attack: a patient posting another user's consent id cannot withdraw it", async () => {
    const victim = await createWhatsAppPatient("Víctima");
    const attacker = await createWhatsAppPatient("Atacante");
    const [victimRow] = await whatsAppConsentRows(victim.id);
    const attempt = await postMyData("/paciente/datos", attacker.cookie, {
      intent: "retirar",
      consentId: victimRow!.id,
    });
    expect(attempt.status).toBe(404);
    expect(attempt.body).toMatchObject({ ok: false, code: "NOT_FOUND" });
    const [still] = await whatsAppConsentRows(victim.id);
    expect(still!.withdrawnAt).toBeNull();
    // Neither is the attacker's own consent touched by the refused post.
    const [own] = await whatsAppConsentRows(attacker.id);
    expect(own!.withdrawnAt).toBeNull();
  });

  it("refuses an invalid post with a Spanish message and changes nothing", async () => {
    const patient = await createWhatsAppPatient("Inés");
    const bad = await postMyData("/paciente/datos", patient.cookie, { intent: "retirar", consentId: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false });
    expect((await whatsAppConsentRows(patient.id))[0]!.withdrawnAt).toBeNull();
  });

  it("guards: no session → /auth; staff without the paciente role → 403 on /paciente/datos, their own /cuenta/datos", async () => {
    for (const [loader, path] of [
      [patientLoader, "/paciente/datos"],
      [accountLoader, "/cuenta/datos"],
    ] as const) {
      const anonymous = await settle(() => loader(routeArgs(clientGet(path))));
      expect(anonymous.status).toBe(302);
      expect(anonymous.location).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
    }
    const anonymousPost = await settle(() =>
      patientAction(routeArgs(clientForm("/paciente/datos", { intent: "oponerse" }))),
    );
    expect(anonymousPost.status).toBe(302);

    const asesor = await createStaffMember(["asesor"]);
    expect((await myDataPage("/paciente/datos", asesor.cookie)).status).toBe(403);
    expect((await postMyData("/paciente/datos", asesor.cookie, { intent: "oponerse" })).status).toBe(403);
    const own = await myDataPage("/cuenta/datos", asesor.cookie);
    expect(own.status).toBe(200);
    expect(own.body.page.path).toBe("/cuenta/datos");
    // Mi Perfil is a patient's page: a staff-only account is not sent to a 403.
    expect(own.body.page.profilePath).toBeNull();
    expect((await postMyData("/cuenta/datos", asesor.cookie, { intent: "oponerse" })).status).toBe(200);
  });
});
