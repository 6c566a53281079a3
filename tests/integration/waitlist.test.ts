import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  appointments,
  auditLog,
  freedSlots,
  outbox,
  users,
  waitlistEntries,
  waitlistOffers,
  whatsAppMessages,
} from "~/db/schema";
import { addDays, clinicDate, clinicInstant, isoWeekday } from "~/domain/clinic-time";
import { SLOT_ALREADY_TAKEN, WAITLIST_BATCH_INTERVAL_MINUTES } from "~/domain/waitlist";
import {
  bookAppointment,
  cancelAppointment,
  releaseHeldBooking,
  rescheduleAppointment,
} from "~/features/appointments/appointment-service.server";
import { accountSubject, withdrawConsent } from "~/features/consent/consent-service.server";
import { claimOffer, offerPage } from "~/features/waitlist/waitlist-claim.server";
import { runWaitlistPass } from "~/features/waitlist/waitlist-offers.server";
import { offerSlotByHand } from "~/features/waitlist/waitlist-service.server";
import type { OfferPageView } from "~/features/waitlist/waitlist-offer-types";
import { action as offerAction, loader as offerLoader } from "~/routes/_public/waitlist-offer";
import { action as waitlistAction, loader as waitlistLoader } from "~/routes/_patient/waitlist";
import { loader as agendaLoader } from "~/routes/_dentist/agenda";
import { action as adminAction, loader as adminLoader } from "~/routes/_admin/waitlist";
import { clientGet, postAs, requestAs } from "../setup/clients";
import {
  createStaffMember,
  createTestUser,
  createWhatsAppPatient,
  insertAppointment,
  type TestUser,
} from "../setup/factories";
import { placeholdersToSend } from "../setup/queued-secrets";
import { thrown, thrownStatus } from "../setup/route-results";
import { routeArgs, unwrap } from "../setup/route-args";

// ADR 040: a freed slot is recorded in the transaction that frees it, offered to the matching waitlist entries five
// at a time every ten minutes (never to its freer), and the first claim books it through the appointment service;
// later claimers read "Esta hora ya fue tomada". Each test has its own dentist, so their slots and entries do not
// meet. The job's `now` is injected; claims book for real, so slots are a few days ahead of the real clock.

afterAll(closeDb);

const BASE_URL = "https://clinica.example";
const HOUR = 3_600_000;

/** The first Monday at least `minDays` days after today (clinic date). */
function nextMonday(minDays = 4): string {
  let date = addDays(clinicDate(new Date()), minDays);
  while (isoWeekday(date) !== 1) date = addDays(date, 1);
  return date;
}

const dentist = () => createTestUser({ roles: ["dentista"], firstName: "Inés" });

/** An active entry for this dentist's Consulta (60 minutes), any weekday, both parts of the day. */
async function joinWaitlist(patientId: string, dentistId: string, createdAt: Date, untilDate?: string) {
  const db = await getDb();
  const [row] = await db
    .insert(waitlistEntries)
    .values({
      patientId,
      treatmentId: (await treatmentId("consulta"))!,
      dentistId,
      weekdays: [],
      dayParts: ["manana", "tarde"],
      earliestDate: clinicDate(new Date()),
      untilDate: untilDate ?? addDays(clinicDate(new Date()), 60),
      createdAt,
    })
    .returning();
  return row!;
}

async function treatmentId(slug: string) {
  const db = await getDb();
  const { treatmentsCatalog } = await import("~/db/schema");
  const [row] = await db
    .select({ id: treatmentsCatalog.id })
    .from(treatmentsCatalog)
    .where(eq(treatmentsCatalog.slug, slug));
  return row?.id;
}

/** A Consulta of `patient` with `dentistId` at 10:00 on `date`, cancelled by them now: its slot is freed. */
async function freeByCancelling(patient: TestUser, dentistId: string, date: string, time = "10:00") {
  const booked = await insertAppointment({
    patientId: patient.id,
    dentistId,
    slug: "consulta",
    startsAt: clinicInstant(date, time),
  });
  await cancelAppointment(await getDb(), patient.id, booked.id);
  const [slot] = await (
    await getDb()
  )
    .select()
    .from(freedSlots)
    .where(and(eq(freedSlots.dentistId, dentistId), eq(freedSlots.startsAt, booked.startsAt)));
  return { booked, slot: slot! };
}

async function offersOf(slotId: string) {
  return (await getDb()).select().from(waitlistOffers).where(eq(waitlistOffers.slotId, slotId));
}

/** The link of the WhatsApp offer queued to this patient (its secret placeholder, opened as the sender would). */
async function offerLink(patientId: string): Promise<string> {
  const db = await getDb();
  const [message] = await db
    .select({ id: whatsAppMessages.id })
    .from(whatsAppMessages)
    .where(
      and(eq(whatsAppMessages.userId, patientId), eq(whatsAppMessages.templateName, "oferta_lista_espera")),
    );
  if (!message) throw new Error("no offer message");
  const placeholders = await placeholdersToSend(message.id);
  return placeholders[5]!;
}

const tokenOf = (link: string) => link.split("/").at(-1)!;

const pass = async (now: Date) => runWaitlistPass(await getDb(), now, { baseUrl: BASE_URL });

const claim = async (token: string, sessionUserId: string | null = null) =>
  claimOffer(await getDb(), token, { sessionUserId, path: `/lista-de-espera/oferta/${token}`, webpay: null });

describe("freeing a slot", () => {
  it("a cancellation writes an open freed slot in its transaction, freed by the canceller", async () => {
    const doctor = await dentist();
    const canceller = await createTestUser({ firstName: "Bruno" });
    const { slot, booked } = await freeByCancelling(canceller, doctor.id, nextMonday());
    expect(slot).toMatchObject({
      status: "abierta",
      reason: "cancelacion",
      freedByPatientId: canceller.id,
      sourceAppointmentId: booked.id,
      endsAt: booked.endsAt,
    });
  });

  it("a slot less than two hours away is not recorded", async () => {
    const doctor = await dentist();
    const patient = await createTestUser();
    const soon = new Date(Math.ceil((Date.now() + 90 * 60_000) / 60_000) * 60_000);
    const booked = await insertAppointment({ patientId: patient.id, dentistId: doctor.id, startsAt: soon });
    await cancelAppointment(await getDb(), patient.id, booked.id);
    const rows = await (await getDb()).select().from(freedSlots).where(eq(freedSlots.dentistId, doctor.id));
    expect(rows).toEqual([]);
  });

  it("a reschedule frees the old time and an unpaid hold that expires frees its time", async () => {
    const doctor = await dentist();
    const patient = await createTestUser();
    const date = nextMonday();
    const booked = await insertAppointment({
      patientId: patient.id,
      dentistId: doctor.id,
      startsAt: clinicInstant(date, "09:00"),
    });
    await rescheduleAppointment(await getDb(), patient.id, booked.id, { date, time: "15:00" });
    const held = await insertAppointment({
      patientId: patient.id,
      dentistId: doctor.id,
      startsAt: clinicInstant(date, "11:00"),
      status: "pending_payment",
    });
    expect(await releaseHeldBooking(await getDb(), held.id)).toBe(true);
    const rows = await (await getDb()).select().from(freedSlots).where(eq(freedSlots.dentistId, doctor.id));
    expect(rows.map((row) => [row.reason, row.startsAt.getTime()]).toSorted()).toEqual(
      [
        ["pago_vencido", clinicInstant(date, "11:00").getTime()],
        ["reagendamiento", clinicInstant(date, "09:00").getTime()],
      ].toSorted(),
    );
  });
});

const joinedAt = (index: number) => new Date(Date.UTC(2026, 0, 1, 12, index));

describe("the job", () => {
  it("offers 5, then 5 more ten minutes later, in the order they joined, never to the canceller", async () => {
    const doctor = await dentist();
    const canceller = await createWhatsAppPatient("Bruno");
    const waiting = await Promise.all(
      Array.from({ length: 11 }, (_, index) => createWhatsAppPatient(`Espera${index}`)),
    );
    // The canceller joined first: still never offered their own slot.
    await joinWaitlist(canceller.id, doctor.id, joinedAt(0));
    for (const [index, patient] of waiting.entries())
      await joinWaitlist(patient.id, doctor.id, joinedAt(index + 1));
    const { slot } = await freeByCancelling(canceller, doctor.id, nextMonday());

    const now = new Date();
    await pass(now);
    const first = await offersOf(slot.id);
    expect(first.map((offer) => offer.patientId).toSorted()).toEqual(
      waiting
        .slice(0, 5)
        .map((patient) => patient.id)
        .toSorted(),
    );
    expect(first.every((offer) => offer.batch === 1 && offer.status === "enviada")).toBe(true);

    // Not yet: the next batch waits ten minutes.
    await pass(new Date(now.getTime() + 9 * 60_000));
    expect(await offersOf(slot.id)).toHaveLength(5);

    await pass(new Date(now.getTime() + WAITLIST_BATCH_INTERVAL_MINUTES * 60_000));
    const second = (await offersOf(slot.id)).filter((offer) => offer.batch === 2);
    expect(second.map((offer) => offer.patientId).toSorted()).toEqual(
      waiting
        .slice(5, 10)
        .map((patient) => patient.id)
        .toSorted(),
    );
    const all = await offersOf(slot.id);
    expect(all.some((offer) => offer.patientId === canceller.id)).toBe(false);

    // Each offer went by WhatsApp (template with a secret link) and by e-mail, in the same transaction.
    const link = await offerLink(waiting[0]!.id);
    expect(link).toMatch(/^https:\/\/clinica\.example\/lista-de-espera\/oferta\/[A-Za-z0-9_-]{43}$/);
    const [stored] = await (
      await getDb()
    )
      .select({ placeholders: whatsAppMessages.templatePlaceholders })
      .from(whatsAppMessages)
      .where(eq(whatsAppMessages.userId, waiting[0]!.id));
    expect(stored?.placeholders?.[5]).toBe("[oculto]");
    const emails = await (
      await getDb()
    )
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(eq(outbox.kind, "email"));
    expect(emails.some((row) => (row.payload as { to?: string }).to === waiting[0]!.email)).toBe(true);
  });

  it("a withdrawn WhatsApp consent: the offer goes by e-mail only", async () => {
    const doctor = await dentist();
    const patient = await createWhatsAppPatient("Sin");
    const db = await getDb();
    await withdrawConsent(db, {
      subject: await accountSubject(db, patient.id),
      purpose: "recordatorios_whatsapp",
      channel: "perfil",
    });
    // The profile column says yes again; the ledger still decides.
    await db
      .update(users)
      .set({ whatsappOptInAt: new Date("2020-01-01") })
      .where(eq(users.id, patient.id));
    await joinWaitlist(patient.id, doctor.id, new Date());
    const { slot } = await freeByCancelling(await createTestUser(), doctor.id, nextMonday());
    await pass(new Date());
    expect(await offersOf(slot.id)).toHaveLength(1);
    const messages = await db.select().from(whatsAppMessages).where(eq(whatsAppMessages.userId, patient.id));
    expect(messages).toEqual([]);
  });

  it("stops offering under two hours, and closes a slot an appointment took meanwhile", async () => {
    const doctor = await dentist();
    const patient = await createWhatsAppPatient("Tarde");
    await joinWaitlist(patient.id, doctor.id, new Date());
    const date = nextMonday();
    const { slot } = await freeByCancelling(await createTestUser(), doctor.id, date);
    await pass(new Date(slot.startsAt.getTime() - 2 * HOUR + 60_000));
    const [closed] = await (await getDb()).select().from(freedSlots).where(eq(freedSlots.id, slot.id));
    expect(closed?.status).toBe("cerrada");
    expect(await offersOf(slot.id)).toEqual([]);

    const other = await freeByCancelling(await createTestUser(), doctor.id, date, "15:00");
    await insertAppointment({
      patientId: (await createTestUser()).id,
      dentistId: doctor.id,
      startsAt: other.slot.startsAt,
    });
    await pass(new Date());
    const [taken] = await (await getDb()).select().from(freedSlots).where(eq(freedSlots.id, other.slot.id));
    expect(taken?.status).toBe("cerrada");
    expect(await offersOf(other.slot.id)).toEqual([]);
  });
});

async function offeredToTwo() {
  const doctor = await dentist();
  const [ana, beto] = [await createWhatsAppPatient("Ana"), await createWhatsAppPatient("Beto")];
  const anaEntry = await joinWaitlist(ana.id, doctor.id, new Date(Date.UTC(2026, 0, 1)));
  const betoEntry = await joinWaitlist(beto.id, doctor.id, new Date(Date.UTC(2026, 0, 2)));
  const { slot } = await freeByCancelling(await createTestUser(), doctor.id, nextMonday());
  await pass(new Date());
  return {
    doctor,
    slot,
    ana,
    beto,
    anaEntry,
    betoEntry,
    anaToken: tokenOf(await offerLink(ana.id)),
    betoToken: tokenOf(await offerLink(beto.id)),
  };
}

const kindOf = (view: OfferPageView) => view.kind;

describe("claiming", () => {
  it("two simultaneous claims: one booking, one 'Esta hora ya fue tomada' with the next free times", async () => {
    const { doctor, slot, ana, anaToken, betoToken, anaEntry, betoEntry } = await offeredToTwo();
    const shown = await offerPage(await getDb(), anaToken, { sessionUserId: null, path: "/", webpay: null });
    expect(shown.view).toMatchObject({
      kind: "offer",
      slot: { treatment: expect.any(String), time: "10:00" },
    });

    const results = await Promise.all([claim(anaToken), claim(betoToken)]);
    expect(results.map((result) => kindOf(result.view)).toSorted()).toEqual(["claimed", "taken"]);
    const loser = results.find((result) => result.view.kind === "taken")!;
    expect(loser.status).toBe(409);
    if (loser.view.kind !== "taken") throw new Error("unreachable");
    expect(loser.view.nextTimes.length).toBeGreaterThan(0);
    expect(loser.view.stillOnList).toBe(true);

    const db = await getDb();
    const booked = await db
      .select()
      .from(appointments)
      .where(
        and(
          eq(appointments.dentistId, doctor.id),
          eq(appointments.startsAt, slot.startsAt),
          eq(appointments.status, "scheduled"),
        ),
      );
    expect(booked).toHaveLength(1);
    const winnerId = booked[0]!.patientId;
    const [after] = await db.select().from(freedSlots).where(eq(freedSlots.id, slot.id));
    expect(after).toMatchObject({ status: "tomada", takenAppointmentId: booked[0]!.id });
    const entries = await db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.id, winnerId === ana.id ? anaEntry.id : betoEntry.id));
    expect(entries[0]?.status).toBe("cumplida");
    const loserEntry = winnerId === ana.id ? betoEntry : anaEntry;
    const [still] = await db.select().from(waitlistEntries).where(eq(waitlistEntries.id, loserEntry.id));
    expect(still?.status).toBe("activa");
    const offers = await offersOf(slot.id);
    expect(offers.map((offer) => offer.status).toSorted()).toEqual(["perdida", "tomada"]);

    // The loser's page says it, exactly, through the route too.
    const loserToken = winnerId === ana.id ? betoToken : anaToken;
    const page = unwrap<OfferPageView>(
      await offerLoader(routeArgs(clientGet(`/lista-de-espera/oferta/${loserToken}`), { token: loserToken })),
    );
    expect(page.body.kind).toBe("taken");
  });

  it("a used link books nothing more; an unknown link is a 404 and changes nothing", async () => {
    const { doctor, anaToken } = await offeredToTwo();
    expect((await claim(anaToken)).view.kind).toBe("claimed");
    const again = await claim(anaToken);
    expect(again.view.kind).toBe("claimed");
    const db = await getDb();
    const rows = await db
      .select()
      .from(appointments)
      .where(and(eq(appointments.dentistId, doctor.id), eq(appointments.status, "scheduled")));
    expect(rows).toHaveLength(1);

    const forged = "A".repeat(43);
    const response = unwrap<OfferPageView>(
      await offerAction(
        routeArgs(postAs(undefined, `/lista-de-espera/oferta/${forged}`, {}), { token: forged }),
      ),
    );
    expect(response).toEqual({ status: 404, body: { kind: "invalid" } });
    expect((await claim("corto")).status).toBe(404);
  });

  it("another signed-in account cannot see or claim the offer", async () => {
    const { slot, ana, anaToken } = await offeredToTwo();
    const intruder = await createTestUser({ firstName: "Intrusa" });
    const page = unwrap<OfferPageView>(
      await offerAction(
        routeArgs(postAs(intruder.cookie, `/lista-de-espera/oferta/${anaToken}`, {}), { token: anaToken }),
      ),
    );
    expect(page).toEqual({ status: 403, body: { kind: "other-user" } });
    const [after] = await (await getDb()).select().from(freedSlots).where(eq(freedSlots.id, slot.id));
    expect(after?.status).toBe("abierta");
    // The patient's own session may claim it.
    const own = unwrap<OfferPageView>(
      await offerAction(
        routeArgs(postAs(ana.cookie, `/lista-de-espera/oferta/${anaToken}`, {}), { token: anaToken }),
      ),
    );
    expect(own.body.kind).toBe("claimed");
  });

  it("a slot booked the ordinary way meanwhile: the claim reads 'Esta hora ya fue tomada'", async () => {
    const { doctor, slot, anaToken } = await offeredToTwo();
    const other = await createTestUser();
    await bookAppointment(await getDb(), other.id, {
      treatmentSlug: "consulta",
      dentistId: doctor.id,
      date: clinicDate(slot.startsAt),
      time: "10:00",
    });
    const result = await claim(anaToken);
    expect(result.view.kind).toBe("taken");
    expect(SLOT_ALREADY_TAKEN).toBe("Esta hora ya fue tomada");
  });
});

describe("the patient's page", () => {
  it("joins with a valid form, refuses a past date, a date beyond the horizon and no part of the day", async () => {
    const patient = await createTestUser();
    const doctor = await dentist();
    const today = clinicDate(new Date());
    const post = async (fields: Record<string, string>) =>
      unwrap<{ ok: boolean; message: string; fieldErrors?: Record<string, string[]> }>(
        await waitlistAction(routeArgs(postAs(patient.cookie, "/paciente/lista-de-espera", fields))),
      );
    const form = { intent: "join", treatment: "consulta", dentist: doctor.id, manana: "1", dia1: "1" };
    expect((await post({ ...form, untilDate: addDays(today, -1) })).body.message).toContain("anterior a hoy");
    expect((await post({ ...form, untilDate: addDays(today, 120) })).body.message).toContain("hasta 90 días");
    const noPart = await post({
      intent: "join",
      treatment: "consulta",
      dentist: "any",
      untilDate: addDays(today, 10),
    });
    expect(noPart.status).toBe(400);
    expect(noPart.body.fieldErrors?.dayParts?.[0]).toBe("Elige mañana, tarde o ambas.");
    const ok = await post({ ...form, untilDate: addDays(today, 30) });
    expect(ok.body.ok).toBe(true);

    const page = unwrap<{
      entries: Array<{ id: string; weekdays: string; dayParts: string; active: boolean }>;
    }>(await waitlistLoader(routeArgs(requestAs(patient.cookie, "/paciente/lista-de-espera"))));
    expect(page.body.entries).toHaveLength(1);
    expect(page.body.entries[0]).toMatchObject({ weekdays: "Lunes", dayParts: "Mañana", active: true });

    // Another patient cannot withdraw it (404), its owner can.
    const intruder = await createTestUser();
    const foreign = unwrap<{ ok: boolean }>(
      await waitlistAction(
        routeArgs(
          postAs(intruder.cookie, "/paciente/lista-de-espera", {
            intent: "withdraw",
            entryId: page.body.entries[0]!.id,
          }),
        ),
      ),
    );
    expect(foreign.status).toBe(404);
    const withdrawn = await post({ intent: "withdraw", entryId: page.body.entries[0]!.id });
    expect(withdrawn.body.ok).toBe(true);
    const [row] = await (
      await getDb()
    )
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.id, page.body.entries[0]!.id));
    expect(row?.status).toBe("retirada");
  });

  it("Mis Citas' per-appointment link preselects the patient's own booking, never another patient's", async () => {
    const patient = await createTestUser();
    const other = await createTestUser();
    const doctor = await dentist();
    const own = await insertAppointment({
      patientId: patient.id,
      dentistId: doctor.id,
      startsAt: clinicInstant(nextMonday(), "15:00"),
    });
    const foreign = await insertAppointment({
      patientId: other.id,
      dentistId: doctor.id,
      startsAt: clinicInstant(nextMonday(), "16:00"),
    });
    const load = async (id: string) =>
      unwrap<{ preselect: { appointmentId: string; dentist: string; treatment: string } | null }>(
        await waitlistLoader(routeArgs(requestAs(patient.cookie, `/paciente/lista-de-espera?cita=${id}`))),
      ).body.preselect;
    expect(await load(own.id)).toEqual({ appointmentId: own.id, dentist: doctor.id, treatment: "consulta" });
    expect(await load(foreign.id)).toBeNull();
    // Joining with another patient's booking is a 404.
    const refused = unwrap<{ ok: boolean }>(
      await waitlistAction(
        routeArgs(
          postAs(patient.cookie, "/paciente/lista-de-espera", {
            intent: "join",
            treatment: "consulta",
            dentist: "any",
            appointmentId: foreign.id,
            manana: "1",
            untilDate: addDays(clinicDate(new Date()), 20),
          }),
        ),
      ),
    );
    expect(refused.status).toBe(404);
  });

  it("entries past their last date become 'vencida'", async () => {
    const patient = await createTestUser();
    const doctor = await dentist();
    const entry = await joinWaitlist(patient.id, doctor.id, new Date(), clinicDate(new Date()));
    await pass(new Date(Date.now() + 2 * 24 * HOUR));
    const [row] = await (
      await getDb()
    )
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.id, entry.id));
    expect(row?.status).toBe("vencida");
  });
});

describe("staff", () => {
  it("'Ofrecer esta hora' by hand: an open manual slot offered to one entry at once, audited", async () => {
    const doctor = await dentist();
    const admin = await createStaffMember(["admin"]);
    const patient = await createWhatsAppPatient("Manual");
    const entry = await joinWaitlist(patient.id, doctor.id, new Date());
    const { slotId } = await offerSlotByHand(
      await getDb(),
      { id: admin.id, roles: ["admin"], ip: "127.0.0.1" },
      { dentistId: doctor.id, date: nextMonday(), time: "14:00", durationMinutes: 60, entryId: entry.id },
      new Date(),
      BASE_URL,
    );
    const [slot] = await (await getDb()).select().from(freedSlots).where(eq(freedSlots.id, slotId));
    expect(slot).toMatchObject({ reason: "manual", createdBy: admin.id, status: "abierta" });
    const offers = await offersOf(slotId);
    expect(offers).toMatchObject([{ entryId: entry.id, sentBy: admin.id }]);
    const audits = await (
      await getDb()
    )
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, admin.id), eq(auditLog.action, "waitlist.slot_offered")));
    expect(audits).toHaveLength(1);
  });

  it("the dentist sees who waits for them (or any dentist) and their freed slots; the admin page too", async () => {
    const doctor = await createStaffMember(["dentista"], { firstName: "Rocío" });
    const patient = await createWhatsAppPatient("Esperanza");
    await joinWaitlist(patient.id, doctor.id, new Date());
    // The first working day after today: inside the agenda's week.
    let date = addDays(clinicDate(new Date()), 1);
    while (isoWeekday(date) > 5) date = addDays(date, 1);
    const { slot } = await freeByCancelling(await createTestUser(), doctor.id, date);
    await pass(new Date());
    const agenda = unwrap<{
      waitlist: Array<{
        date: string;
        entries: Array<{ patientName: string }>;
        slots: Array<{ id: string; offers: unknown[] }>;
      }>;
    }>(await agendaLoader(routeArgs(requestAs(doctor.cookie, "/dentista"))));
    const today = agenda.body.waitlist[0]!;
    expect(today.entries.map((entry) => entry.patientName)).toContain("Esperanza Test");
    const day = agenda.body.waitlist.find((candidate) => candidate.date === date);
    expect(day?.slots.find((candidate) => candidate.id === slot.id)?.offers).toHaveLength(1);

    const admin = await createStaffMember(["admin"]);
    const page = unwrap<{ entries: Array<{ id: string }> }>(
      await adminLoader(routeArgs(requestAs(admin.cookie, "/admin/lista-de-espera"))),
    );
    expect(page.body.entries.length).toBeGreaterThan(0);
    const refused = unwrap<{ ok: boolean; message: string }>(
      await adminAction(
        routeArgs(
          postAs(admin.cookie, "/admin/lista-de-espera", {
            dentistId: doctor.id,
            date,
            time: "10:00",
            durationMinutes: "60",
            entryId: "",
          }),
        ),
      ),
    );
    // 10:00 is the open freed slot already: it is offered now (next batch now), not duplicated.
    expect(refused.body.ok).toBe(true);
    const rows = await (await getDb()).select().from(freedSlots).where(eq(freedSlots.dentistId, doctor.id));
    expect(rows).toHaveLength(1);

    // An asesor or a patient is refused.
    const asesor = await createStaffMember(["asesor"]);
    expect(
      thrownStatus(await thrown(adminLoader(routeArgs(requestAs(asesor.cookie, "/admin/lista-de-espera"))))),
    ).toBe(403);
    expect(
      thrownStatus(await thrown(adminLoader(routeArgs(requestAs(patient.cookie, "/admin/lista-de-espera"))))),
    ).toBe(403);
  });
});

describe("two instances", () => {
  it("two passes at once offer one batch, not two", async () => {
    const doctor = await dentist();
    for (let index = 0; index < 7; index += 1) {
      await joinWaitlist((await createWhatsAppPatient(`Doble${index}`)).id, doctor.id, joinedAt(index));
    }
    const { slot } = await freeByCancelling(await createTestUser(), doctor.id, nextMonday());
    const now = new Date();
    await Promise.all([pass(now), pass(now)]);
    const offers = await offersOf(slot.id);
    expect(offers).toHaveLength(5);
    expect(new Set(offers.map((offer) => offer.entryId)).size).toBe(5);
  });
});
