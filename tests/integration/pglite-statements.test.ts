import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb, type Database } from "~/db/client.server";
import { hotStatement } from "~/db/pglite-statements.server";
import { advisorMessages, formAssignments, patientDepositFlags, users } from "~/db/schema";
import { latestMessages } from "~/features/advisor/advisor-repository.server";
import {
  patientAppointments,
  patientAppointmentSummary,
} from "~/features/appointments/appointment-repository.server";
import { countPendingAssignments } from "~/features/forms/form-repository.server";
import {
  countNoShows,
  countNoShowsOf,
  findDepositFlags,
  findSetting,
  upsertSetting,
} from "~/features/no-shows/no-show-repository.server";
import { depositsPaidByAppointment } from "~/features/payments/patient-payment-pages.server";
import { profileRow } from "~/features/profile/profile-repository.server";
import { insertAppointment, insertChargeRow, insertPaymentRow, insertRefund } from "../setup/factories";
import { createTestUser } from "../setup/users";

// ADR 053: a hot statement answers exactly what Drizzle's own path answers. On PGlite it runs as PREPARE/EXECUTE on
// the database handle and through Drizzle's query inside a transaction (which has no PGlite client of its own), so
// the two are compared; on PostgreSQL both are Drizzle's (the SQL itself is what is checked there).

let db: Database;
const onPglite = () => (db as unknown as { $client?: unknown }).$client instanceof PGlite;

/** The same call through the hot path (the database) and through Drizzle's query (a transaction). */
async function bothWays<T>(call: (reader: Database) => Promise<T>): Promise<{ hot: T; drizzle: T }> {
  const hot = await call(db);
  const drizzle = await db.transaction((tx) => call(tx as unknown as Database));
  return { hot, drizzle };
}

async function preparedNames(): Promise<string[]> {
  const rows = await db.execute<{ name: string }>(sql`select name from pg_prepared_statements`);
  const list = (Array.isArray(rows) ? rows : (rows as { rows: { name: string }[] }).rows) as {
    name: string;
  }[];
  // Without the hash of the statement's text that ends each name.
  return list.map((row) => row.name.replace(/_[0-9a-f]{8}$/, ""));
}

const echo = hotStatement("test_echo_values", (reader) =>
  reader
    .select({
      text: sql<string>`${sql.placeholder("text")}::text`,
      number: sql<number>`${sql.placeholder("number")}::int`,
      at: sql<string>`to_char(${sql.placeholder("at")}::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS')`,
      flag: sql<boolean>`${sql.placeholder("flag")}::boolean`,
      list: sql<string[]>`array_to_json(${sql.placeholder("list")}::text[])`,
      nothing: sql<string | null>`${sql.placeholder("nothing")}::text`,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder("userId"))),
);

beforeAll(async () => {
  db = await getDb();
});
afterAll(closeDb);

describe("hotStatement", () => {
  it("passes every kind of value through unchanged, quotes and backslashes included", async () => {
    const user = await createTestUser();
    const tricky = `O'Brien \\ "comillas" '' ; drop table users; -- ñandú 🦷 \\'`;
    const values = {
      userId: user.id,
      text: tricky,
      number: -42,
      at: new Date("2026-03-04T05:06:07.089Z"),
      flag: false,
      list: [tricky, "a,b", "{x}", "NULL", "", "back\\slash", 'say "hi"'],
      nothing: null,
    };
    const { hot, drizzle } = await bothWays((reader) => echo(reader, values));
    expect(hot).toEqual(drizzle);
    expect(hot).toHaveLength(1);
    expect(hot[0]).toMatchObject({
      text: tricky,
      number: -42,
      at: "2026-03-04T05:06:07.089",
      flag: false,
      list: values.list,
      nothing: null,
    });
    expect(hot[0]!.createdAt).toBeInstanceOf(Date);
    // On PGlite the statement was PREPAREd on the database (PostgreSQL's are the pool connections' own).
    const wanted = onPglite() ? ["clinica_hot_test_echo_values"] : [];
    expect(await preparedNames()).toEqual(expect.arrayContaining(wanted));
  });

  it("answers no rows for an unknown key, and on PGlite prepares again after DEALLOCATE ALL", async () => {
    const values = {
      userId: "no-such-user",
      text: "x",
      number: 1,
      at: new Date(),
      flag: true,
      list: [],
      nothing: null,
    };
    expect(await echo(db, values)).toEqual([]);
    // pg's client remembers what it prepared on each connection, so DEALLOCATE ALL is PGlite's case only.
    if (!onPglite()) return;
    await db.execute(sql`deallocate all`);
    expect(await echo(db, values)).toEqual([]);
  });

  it("keeps two definitions under one name apart (their SQL is in the prepared name)", async () => {
    const user = await createTestUser();
    // What a dev server's second evaluation of an edited module does: the same name, another statement.
    const again = hotStatement("test_echo_values", (reader) =>
      reader
        .select({ id: users.id })
        .from(users)
        .where(eq(users.id, sql.placeholder("userId"))),
    );
    const values = {
      userId: user.id,
      text: "a",
      number: 1,
      at: new Date(),
      flag: true,
      list: [],
      nothing: null,
    };
    expect(await again(db, { userId: user.id })).toEqual([{ id: user.id }]);
    expect(await echo(db, values)).toEqual([expect.objectContaining({ text: "a", number: 1 })]);
    expect(await again(db, { userId: user.id })).toEqual([{ id: user.id }]);
    expect(() => hotStatement("Bad-Name", (reader) => reader.select().from(users))).toThrow(/bad name/);
  });

  it("refuses a value it cannot write as a literal", async () => {
    if (!onPglite()) return;
    const user = await createTestUser();
    await expect(
      echo(db, {
        userId: user.id,
        text: "a\0b",
        number: 1,
        at: new Date(),
        flag: true,
        list: [],
        nothing: null,
      }),
    ).rejects.toThrow(/NUL/);
    await expect(
      echo(db, {
        userId: user.id,
        text: "a",
        number: Number.NaN,
        at: new Date(),
        flag: true,
        list: [],
        nothing: null,
      }),
    ).rejects.toThrow(/literal/);
  });
});

describe("the portal's hot statements answer as Drizzle's query does", () => {
  it("appointments, the dashboard summary, profile, advisor, pending forms, deposit flag and paid deposits", async () => {
    const [patient, other, dentist] = await Promise.all([
      createTestUser({ firstName: "Hot" }),
      createTestUser(),
      createTestUser({ roles: ["dentista"] }),
    ]);
    const now = new Date();
    const day = 86_400_000;
    const past = await insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      startsAt: new Date(now.getTime() - 10 * day),
      status: "completed",
    });
    const next = await insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      startsAt: new Date(now.getTime() + 3 * day),
      notes: "Traer radiografía",
    });
    const later = await insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      startsAt: new Date(now.getTime() + 9 * day),
      slug: null,
      minutes: 30,
    });
    const foreign = await insertAppointment({
      patientId: other.id,
      dentistId: dentist.id,
      startsAt: new Date(now.getTime() + 4 * day),
    });
    // A paid deposit with a pending refund on `next`; another patient's paid deposit on `foreign`.
    const charge = await insertChargeRow({ patientId: patient.id, appointmentId: next.id, status: "paid" });
    const payment = await insertPaymentRow({ charge });
    await insertRefund(payment, { amount: 5_000, status: "pending" });
    const foreignCharge = await insertChargeRow({
      patientId: other.id,
      appointmentId: foreign.id,
      status: "paid",
    });
    await insertPaymentRow({ charge: foreignCharge });
    await db
      .insert(formAssignments)
      .values({ appointmentId: next.id, patientId: patient.id, formSlug: "anamnesis" });
    await db.insert(advisorMessages).values([
      {
        userId: patient.id,
        role: "user",
        content: "¿Qué valor tiene?",
        createdAt: new Date(now.getTime() - 60_000),
      },
      {
        userId: patient.id,
        role: "assistant",
        content: "Depende.",
        createdAt: new Date(now.getTime() - 60_000),
      },
    ]);
    await db
      .insert(patientDepositFlags)
      .values({ patientId: patient.id, required: true, reason: "no_shows", details: { count: 3 } });
    const startOfToday = new Date(now.getTime() - (now.getTime() % day));
    const missed = await insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      startsAt: new Date(now.getTime() - 5 * day),
      status: "no_show",
    });
    const settingKey = `test-setting-${patient.id}`;
    await upsertSetting(db, settingKey, { enabled: true, threshold: 2, note: "it's" }, patient.id, now);
    const yearAgo = new Date(now.getTime() - 365 * day);

    const cases: Array<[string, (reader: Database) => Promise<unknown>]> = [
      ["appointments", (reader) => patientAppointments(reader, patient.id, startOfToday)],
      ["summary", (reader) => patientAppointmentSummary(reader, patient.id, startOfToday, now)],
      ["summary of none", (reader) => patientAppointmentSummary(reader, dentist.id, startOfToday, now)],
      ["profile", (reader) => profileRow(reader, patient.id)],
      ["advisor", (reader) => latestMessages(reader, patient.id, 100)],
      ["forms", (reader) => countPendingAssignments(reader, patient.id, now)],
      ["flags", (reader) => findDepositFlags(reader, patient.id)],
      ["no flags", (reader) => findDepositFlags(reader, other.id)],
      ["setting", (reader) => findSetting(reader, settingKey)],
      ["no setting", (reader) => findSetting(reader, "no-such-setting")],
      ["no-shows", (reader) => countNoShowsOf(reader, patient.id, yearAgo, now)],
      [
        "deposits",
        (reader) => depositsPaidByAppointment(reader, patient.id, [past.id, next.id, later.id, foreign.id]),
      ],
    ];
    for (const [name, call] of cases) {
      const { hot, drizzle } = await bothWays(call);
      expect({ name, rows: hot }).toEqual({ name, rows: drizzle });
    }
    const hotNames = [
      "patient_appointment_cards",
      "patient_appointment_summary",
      "profile_row",
      "advisor_latest_messages",
      "pending_form_count",
      "patient_deposit_flag",
      "paid_deposits_by_appointment",
      "clinic_setting",
      "patient_no_show_count",
    ].map((name) => `clinica_hot_${name}`);
    expect(await preparedNames()).toEqual(expect.arrayContaining(onPglite() ? hotNames : []));

    const { upcoming, history } = await patientAppointments(db, patient.id, startOfToday);
    expect(upcoming.map((row) => row.id)).toEqual([next.id, later.id]);
    expect(history.map((row) => row.id)).toEqual([missed.id, past.id]);
    expect(upcoming[0]).toMatchObject({ notes: "Traer radiografía", treatmentSlug: "consulta" });
    expect(upcoming[1]).toMatchObject({ treatmentSlug: null, treatmentName: null });
    const summary = await patientAppointmentSummary(db, patient.id, startOfToday, now);
    expect(summary).toMatchObject({ upcoming: 2, history: 2, next: { id: next.id, status: "scheduled" } });
    expect(await countPendingAssignments(db, patient.id, now)).toBe(1);
    expect(await countNoShowsOf(db, patient.id, yearAgo, now)).toBe(1);
    expect((await countNoShows(db, [patient.id], yearAgo, now)).get(patient.id)).toBe(1);
    expect(await countNoShowsOf(db, other.id, yearAgo, now)).toBe(0);
    expect(await findSetting(db, settingKey)).toEqual({ enabled: true, threshold: 2, note: "it's" });
    expect(await findDepositFlags(db, patient.id)).toEqual({ mustLeaveDeposit: true, noShow: { count: 3 } });
    // Only this patient's deposits: another patient's appointment id reads as nothing paid.
    const paid = await depositsPaidByAppointment(db, patient.id, [past.id, next.id, later.id, foreign.id]);
    expect([...paid]).toEqual([[next.id, charge.amount - 5_000]]);
    expect((await depositsPaidByAppointment(db, other.id, [next.id])).size).toBe(0);
    expect((await latestMessages(db, patient.id, 100)).map((row) => row.role)).toEqual(["user", "assistant"]);
  });
});
