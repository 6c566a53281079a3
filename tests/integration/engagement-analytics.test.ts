import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { appointments, formAssignments, formDefinitions, formSubmissions, freedSlots } from "~/db/schema";
import { clinicInstant } from "~/domain/clinic-time";
import type { ChartData } from "~/features/analytics/analytics-dto";
import { loader as csvLoader } from "~/routes/_staff/analytics-csv";
import { loader as funnelLoader } from "~/routes/_staff/funnel";
import { requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createStaffMember, createTestUser, insertAppointment, type TestUser } from "../setup/factories";

// The Analytics tab's engagement figures (issue 23, ADR 042), each counted in SQL from rows inserted here directly:
// confirmation, no-shows, cancellations under 24 h, slots refilled from the waitlist with the median time, forms
// completed before the visit. A past week, so every appointment of it has started.

afterAll(closeDb);

const PERIOD = "period=custom&from=2025-03-03&to=2025-03-09";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let asesor: TestUser;

const at = (date: string, time: string) => clinicInstant(date, time);

beforeAll(async () => {
  const db = await getDb();
  asesor = await createStaffMember(["asesor"]);
  const dentist = await createTestUser({ roles: ["dentista"], firstName: "Elsa" });
  const patient = await createTestUser({ firstName: "Fabiola" });
  const book = (date: string, time: string, status: string) =>
    insertAppointment({
      patientId: patient.id,
      dentistId: dentist.id,
      startsAt: at(date, time),
      status,
      minutes: 30,
    });

  const confirmed = await book("2025-03-03", "09:00", "completed");
  const unconfirmed = await book("2025-03-03", "10:00", "completed");
  const noShow = await book("2025-03-04", "09:00", "no_show");
  const late = await book("2025-03-05", "09:00", "cancelled");
  const early = await book("2025-03-06", "09:00", "cancelled");
  await book("2025-03-06", "11:00", "payment_failed");
  const outside = await book("2025-03-10", "09:00", "completed");
  const set = (id: string, values: Partial<typeof appointments.$inferInsert>) =>
    db.update(appointments).set(values).where(eq(appointments.id, id));
  await set(confirmed.id, { confirmedAt: new Date(confirmed.startsAt.getTime() - 30 * HOUR) });
  await set(noShow.id, { confirmedAt: new Date(noShow.startsAt.getTime() - 20 * HOUR) });
  await set(outside.id, { confirmedAt: new Date(outside.startsAt.getTime() - 20 * HOUR) });
  await set(late.id, { cancelledAt: new Date(late.startsAt.getTime() - 2 * HOUR) });
  await set(early.id, { cancelledAt: new Date(early.startsAt.getTime() - 72 * HOUR) });

  // Three slots freed in the week: two taken from the waitlist after 20 and 40 minutes, one closed.
  const freedAt = at("2025-03-05", "07:00");
  await db.insert(freedSlots).values([
    {
      dentistId: dentist.id,
      startsAt: at("2025-03-05", "09:00"),
      endsAt: at("2025-03-05", "09:30"),
      reason: "cancelacion",
      status: "tomada",
      createdAt: freedAt,
      takenAt: new Date(freedAt.getTime() + 20 * MINUTE),
    },
    {
      dentistId: dentist.id,
      startsAt: at("2025-03-07", "09:00"),
      endsAt: at("2025-03-07", "09:30"),
      reason: "cancelacion",
      status: "tomada",
      createdAt: freedAt,
      takenAt: new Date(freedAt.getTime() + 40 * MINUTE),
    },
    {
      dentistId: dentist.id,
      startsAt: at("2025-03-08", "09:00"),
      endsAt: at("2025-03-08", "09:30"),
      reason: "manual",
      status: "cerrada",
      createdAt: freedAt,
    },
  ]);

  // Forms: one answered the day before, one after the visit had started, one never; the cancelled visit's is not due.
  const [definition] = await db
    .insert(formDefinitions)
    .values({
      slug: "antecedentes-prueba",
      version: 1,
      kind: "antecedentes",
      title: "Antecedentes",
      definition: {},
    })
    .returning();
  const assign = async (appointmentId: string) => {
    const [row] = await db
      .insert(formAssignments)
      .values({ appointmentId, patientId: patient.id, formSlug: "antecedentes-prueba" })
      .returning();
    return row!;
  };
  const submit = (assignmentId: string, appointmentId: string, submittedAt: Date) =>
    db.insert(formSubmissions).values({
      assignmentId,
      appointmentId,
      patientId: patient.id,
      definitionId: definition!.id,
      answers: {},
      pdf: Buffer.from("%PDF-1.4"),
      pdfSha256: "0".repeat(64),
      submittedAt,
    });
  const before = await assign(confirmed.id);
  await submit(before.id, confirmed.id, new Date(confirmed.startsAt.getTime() - 24 * HOUR));
  const after = await assign(unconfirmed.id);
  await submit(after.id, unconfirmed.id, new Date(unconfirmed.startsAt.getTime() + 10 * MINUTE));
  await assign(noShow.id);
  const cancelledForm = await assign(late.id);
  await submit(cancelledForm.id, late.id, new Date(late.startsAt.getTime() - 24 * HOUR));
});

describe("the engagement figures of the Analytics tab", () => {
  it("counts each figure from the database for the period", async () => {
    const page = await settle<{ analytics: { charts: ChartData[] } | null }>(() =>
      funnelLoader(routeArgs(requestAs(asesor.cookie, `/funnel?tab=analytics&${PERIOD}`))),
    );
    const chart = page.body.analytics?.charts.find((item) => item.key === "engagement");
    expect(chart).toBeDefined();
    expect(chart!.rows.map((row) => [row.key, ...row.values])).toEqual([
      ["confirmation", 2, 3],
      ["no-show", 1, 3],
      ["late-cancellation", 1, 5],
      ["waitlist", 2, 3],
      ["forms", 1, 3],
    ]);
    expect(chart!.extras[0]!.values).toEqual(["66,7%", "33,3%", "20,0%", "66,7%", "33,3%"]);
    expect(chart!.extras[1]!.values[3]).toBe("Mediana: 30 min");
  });

  it("downloads the same figures as CSV, staff only", async () => {
    const response = (await csvLoader(
      routeArgs(requestAs(asesor.cookie, `/funnel/analytics.csv?chart=engagement&${PERIOD}`)),
    )) as Response;
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="analytics-engagement-2025-03-03-a-2025-03-09.csv"',
    );
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Indicador;Casos;Total;Tasa;Tiempo para reponer");
    expect(lines).toContain(
      // The comma of "66,7%" is quoted by the CSV dialect.
      'Horas liberadas repuestas desde la lista de espera;2;3;"66,7%";Mediana: 30 min',
    );
    expect(lines).toContain('Inasistencias;1;3;"33,3%";');

    const patient = await createTestUser({ firstName: "Gala" });
    const refused = await settle(() =>
      csvLoader(routeArgs(requestAs(patient.cookie, `/funnel/analytics.csv?chart=engagement&${PERIOD}`))),
    );
    expect(refused.status).toBe(403);
  });
});
