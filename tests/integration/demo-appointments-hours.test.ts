import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clinicOpeningHours } from "~/config/clinic";
import { closeDb, getDb } from "~/db/client.server";
import { appointments, users } from "~/db/schema";
import { clinicDate, clinicInstant, clinicTime, minutesOfDay } from "~/domain/clinic-time";
import { dentistDisplayName } from "~/domain/dentist-name";
import { getAuth } from "~/features/auth/auth-instance.server";
import { seedDemoAccounts, seedDemoAppointments } from "~/startup/demo-accounts.server";

// Issue 24, item 11: the demo's appointments a patient or a dentist sees are all inside the clinic's hours
// (Mon–Fri 9:00–18:00), whenever the demo starts (morning, evening, midnight, weekend); its dentists have their
// titles (the women are "Dra.").

afterAll(closeDb);

beforeAll(async () => {
  await seedDemoAccounts(await getDb(), await getAuth());
});

const opens = minutesOfDay(clinicOpeningHours.opens);
const closes = minutesOfDay(clinicOpeningHours.closes);

/** Demo starts to try: a weekday morning before opening, just after, midday, evening, 00:30 (the old 20:30 cleaning), Saturday and Monday early. */
const starts = [
  ["2026-11-25", "07:10"],
  ["2026-11-25", "09:20"],
  ["2026-11-25", "09:50"],
  ["2026-11-25", "13:05"],
  ["2026-11-25", "18:55"],
  ["2026-11-25", "23:40"],
  ["2026-11-26", "00:30"],
  ["2026-11-28", "11:00"],
  ["2026-11-30", "06:00"],
] as const;

describe("demo appointments", () => {
  it.each(starts)("seeded on %s at %s: every one starts and ends inside 9:00–18:00", async (date, time) => {
    const db = await getDb();
    const auth = await getAuth();
    const now = clinicInstant(date, time);
    await db.delete(appointments);
    await seedDemoAppointments(db, auth, now);
    const rows = await db
      .select({ startsAt: appointments.startsAt, endsAt: appointments.endsAt, status: appointments.status })
      .from(appointments);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    const outside = rows
      .filter(
        (row) =>
          clinicDate(row.endsAt) !== clinicDate(row.startsAt) ||
          minutesOfDay(clinicTime(row.startsAt)) < opens ||
          minutesOfDay(clinicTime(row.endsAt)) > closes,
      )
      .map(
        (row) =>
          `${clinicDate(row.startsAt)} ${clinicTime(row.startsAt)}–${clinicTime(row.endsAt)} (${row.status})`,
      );
    expect(outside).toEqual([]);
    // The demo still has a visit in progress today and a started, unmarked visit for the no-show demo.
    expect(rows.some((row) => row.status === "in_progress" && clinicDate(row.startsAt) === date)).toBe(true);
    expect(
      rows.some((row) => row.status === "scheduled" && row.startsAt.getTime() <= now.getTime() - 35 * 60_000),
    ).toBe(true);
  });

  it("names the demo's dentists with their title: the women are 'Dra.'", async () => {
    const db = await getDb();
    const dentists = await db
      .select({ firstName: users.firstName, lastName: users.lastName, title: users.professionalTitle })
      .from(users)
      .where(
        inArray(users.email, [
          "dentista@clinica.example",
          "fernanda.vidal@clinica.example",
          "tomas.araya@clinica.example",
          "isidora.campos@clinica.example",
        ]),
      );
    expect(dentists.map(dentistDisplayName).toSorted()).toEqual([
      "Dr. Andrés Morales",
      "Dr. Tomás Araya",
      "Dra. Fernanda Vidal",
      "Dra. Isidora Campos",
    ]);
  });

  it("gives a title to the dentists of a demo database made before titles, keeping one an admin chose", async () => {
    const db = await getDb();
    await db
      .update(users)
      .set({ professionalTitle: null })
      .where(eq(users.email, "fernanda.vidal@clinica.example"));
    await db
      .update(users)
      .set({ professionalTitle: "dr" })
      .where(eq(users.email, "isidora.campos@clinica.example"));
    await db.delete(appointments);
    await seedDemoAppointments(db, await getAuth(), new Date());
    const titles = await db
      .select({ email: users.email, title: users.professionalTitle })
      .from(users)
      .where(inArray(users.email, ["fernanda.vidal@clinica.example", "isidora.campos@clinica.example"]));
    expect(Object.fromEntries(titles.map((row) => [row.email, row.title]))).toEqual({
      "fernanda.vidal@clinica.example": "dra",
      "isidora.campos@clinica.example": "dr",
    });
  });
});
