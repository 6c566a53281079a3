import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  appointments,
  freedSlots,
  treatmentsCatalog,
  waitlistEntries,
  waitlistOffers,
  whatsAppMessages,
} from "~/db/schema";
import { addDays, clinicDate, clinicInstant, isoWeekday } from "~/domain/clinic-time";
import { WAITLIST_BATCH_INTERVAL_MINUTES } from "~/domain/waitlist";
import { bookAppointment, cancelAppointment } from "~/features/appointments/appointment-service.server";
import { claimOffer } from "~/features/waitlist/waitlist-claim.server";
import { runWaitlistPass } from "~/features/waitlist/waitlist-offers.server";
import { createTestUser, createWhatsAppPatient, insertAppointment } from "../setup/factories";
import { placeholdersToSend } from "../setup/queued-secrets";

// ADR 040, amendment (stop 33): a time freed again while its freed_slots row is still open (it was booked the
// ordinary way before the job's next look, then freed once more) is offered at once to those not offered it yet,
// never to its new freer; the links of the first batch still work, and the booking decides between claims.
// The job's `now` is injected; claims book for real, so the slot is a Monday at 10:00 clinic time, days ahead.

afterAll(closeDb);

const BASE_URL = "https://clinica.example";

/** The first Monday at least `minDays` days after today (clinic date). */
function nextMonday(minDays = 4): string {
  let date = addDays(clinicDate(new Date()), minDays);
  while (isoWeekday(date) !== 1) date = addDays(date, 1);
  return date;
}

/** An active entry for this dentist's Consulta, any weekday, both parts of the day. */
async function joinWaitlist(patientId: string, dentistId: string, createdAt: Date) {
  const db = await getDb();
  const [treatment] = await db
    .select({ id: treatmentsCatalog.id })
    .from(treatmentsCatalog)
    .where(eq(treatmentsCatalog.slug, "consulta"));
  await db.insert(waitlistEntries).values({
    patientId,
    treatmentId: treatment!.id,
    dentistId,
    weekdays: [],
    dayParts: ["manana", "tarde"],
    earliestDate: clinicDate(new Date()),
    untilDate: addDays(clinicDate(new Date()), 60),
    createdAt,
  });
}

const pass = async (now: Date) => runWaitlistPass(await getDb(), now, { baseUrl: BASE_URL });

const offersOf = async (slotId: string) =>
  (await getDb()).select().from(waitlistOffers).where(eq(waitlistOffers.slotId, slotId));

const slotsAt = async (dentistId: string, startsAt: Date) =>
  (await getDb())
    .select()
    .from(freedSlots)
    .where(and(eq(freedSlots.dentistId, dentistId), eq(freedSlots.startsAt, startsAt)));

/** The token of the WhatsApp offer queued to this patient (its secret link, opened as the sender would). */
async function offerToken(patientId: string): Promise<string> {
  const [message] = await (
    await getDb()
  )
    .select({ id: whatsAppMessages.id })
    .from(whatsAppMessages)
    .where(
      and(eq(whatsAppMessages.userId, patientId), eq(whatsAppMessages.templateName, "oferta_lista_espera")),
    );
  if (!message) throw new Error("no offer message");
  return (await placeholdersToSend(message.id))[5]!.split("/").at(-1)!;
}

const claim = async (token: string) =>
  claimOffer(await getDb(), token, {
    sessionUserId: null,
    path: `/lista-de-espera/oferta/${token}`,
    webpay: null,
  });

const liveAt = async (dentistId: string, startsAt: Date) =>
  (await getDb())
    .select({ patientId: appointments.patientId, status: appointments.status })
    .from(appointments)
    .where(and(eq(appointments.dentistId, dentistId), eq(appointments.startsAt, startsAt)));

describe("a time freed again while its slot is still open", () => {
  it("is offered at once to who joined since, never to its new freer; the first batch's link still decides by the booking", async () => {
    const db = await getDb();
    const doctor = await createTestUser({ roles: ["dentista"], firstName: "Inés" });
    const first = await createTestUser({ firstName: "Primera" });
    const p1 = await createWhatsAppPatient("Pía");
    const b = await createWhatsAppPatient("Bruno");
    const a = await createWhatsAppPatient("Ana");
    await joinWaitlist(p1.id, doctor.id, new Date(Date.UTC(2026, 0, 1)));

    // Freed, and its first batch goes to P1: the next batch is ten minutes later.
    const date = nextMonday();
    const startsAt = clinicInstant(date, "10:00");
    const booked = await insertAppointment({
      patientId: first.id,
      dentistId: doctor.id,
      slug: "consulta",
      startsAt,
    });
    await cancelAppointment(db, first.id, booked.id);
    const firstBatchAt = new Date();
    expect(await pass(firstBatchAt)).toMatchObject({ offered: 1 });
    const [slot] = await slotsAt(doctor.id, startsAt);
    expect((await offersOf(slot!.id)).map((offer) => offer.patientId)).toEqual([p1.id]);
    const p1Token = await offerToken(p1.id);

    // B and A join the list after that batch; B books the time the ordinary way (the row stays open).
    await joinWaitlist(b.id, doctor.id, new Date(Date.UTC(2026, 0, 2)));
    await joinWaitlist(a.id, doctor.id, new Date(Date.UTC(2026, 0, 3)));
    const bBooking = await bookAppointment(db, b.id, {
      treatmentSlug: "consulta",
      dentistId: doctor.id,
      date,
      time: "10:00",
    });

    // While B holds the time, P1's link cannot take it: the booking refuses, nothing changes.
    const refused = await claim(p1Token);
    expect(refused.status).toBe(409);
    expect(refused.view.kind).toBe("taken");
    expect((await liveAt(doctor.id, startsAt)).filter((row) => row.status === "scheduled")).toEqual([
      { patientId: b.id, status: "scheduled" },
    ]);
    expect((await offersOf(slot!.id)).map((offer) => offer.status)).toEqual(["enviada"]);

    // B cancels: the same open row, freed by B now, due at once.
    await cancelAppointment(db, b.id, bBooking.id);
    const rows = await slotsAt(doctor.id, startsAt);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: slot!.id,
      status: "abierta",
      reason: "cancelacion",
      freedByPatientId: b.id,
      sourceAppointmentId: bBooking.id,
    });
    expect(rows[0]!.nextBatchAt.getTime()).toBeLessThanOrEqual(Date.now());

    // The next pass (well within the first batch's ten minutes) offers it to A, not to B, not again to P1.
    const again = new Date();
    expect(again.getTime()).toBeLessThan(firstBatchAt.getTime() + WAITLIST_BATCH_INTERVAL_MINUTES * 60_000);
    await pass(again);
    const offered = await offersOf(slot!.id);
    expect(offered.map((offer) => offer.patientId).toSorted()).toEqual([p1.id, a.id].toSorted());
    expect(offered.find((offer) => offer.patientId === a.id)?.batch).toBe(2);
    // Nor later: B freed it.
    await pass(new Date(again.getTime() + 2 * WAITLIST_BATCH_INTERVAL_MINUTES * 60_000));
    expect((await offersOf(slot!.id)).some((offer) => offer.patientId === b.id)).toBe(false);

    // P1's old link and A's new one at once: one booking, the other reads "Esta hora ya fue tomada".
    const results = await Promise.all([claim(p1Token), claim(await offerToken(a.id))]);
    expect(results.map((result) => result.view.kind).toSorted()).toEqual(["claimed", "taken"]);
    const scheduled = (await liveAt(doctor.id, startsAt)).filter((row) => row.status === "scheduled");
    expect(scheduled).toHaveLength(1);
    expect([p1.id, a.id]).toContain(scheduled[0]!.patientId);
    const [after] = await slotsAt(doctor.id, startsAt);
    expect(after?.status).toBe("tomada");
    expect((await offersOf(slot!.id)).map((offer) => offer.status).toSorted()).toEqual(["perdida", "tomada"]);
  });
});
