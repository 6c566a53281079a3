import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { clinicalRecordBindings, dentalinkDentistLinks, outbox } from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import { bookAppointment } from "~/features/appointments/appointment-service.server";
import { setDentalinkReader } from "~/features/clinical-record/dentalink-reader.server";
import type { PatientRecordPage } from "~/features/clinical-record/record-schema";
import {
  buildDentalinkClient,
  type DentalinkSettings,
} from "~/features/dentalink-sync/dentalink-settings.server";
import {
  createDentalinkWriteThroughHandler,
  DENTALINK_APPOINTMENT_KIND,
} from "~/features/dentalink-sync/dentalink-writethrough.server";
import { deliverDue } from "~/features/outbox/outbox.server";
import { withDentalinkDeadline } from "~/integrations/dentalink/dentalink-client.server";
import { startDentalinkFake, type DentalinkFake } from "~/integrations/dentalink/dentalink-fake";
import { createDentalinkFileFetcher } from "~/integrations/dentalink/dentalink-files.server";
import { IntegrationError } from "~/integrations/http.server";
import { action as staffAction } from "~/routes/_dentist/clinical-record";
import { loader as staffFileLoader } from "~/routes/_dentist/clinical-record-file";
import { loader as recordLoader } from "~/routes/_patient/clinical-record";
import { postAs, requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser } from "../setup/users";

// A hanging Dentalink must not hold an interactive request for 8 s × 3 attempts. The reads a
// person waits for get one deadline of 5 s; the outbox's write-through keeps its long timeouts and retries. The
// clients are built by the app's own factory with the production per-attempt timeout (8 s); only the fake's hang
// decides how long a request waits, nothing here sleeps.

const API_KEY = vi.hoisted(() => {
  const key = `key-deadline-${Date.now()}`;
  // Live mode (bookings queue their write-through): the env module is read once, when first used.
  process.env.DENTALINK_API_KEY = key;
  return key;
});
/**
 * The deadline (5 s) plus room for the database work around it on a busy machine; still under the 8 s that a single
 * attempt without the deadline waits, so the test fails without it.
 */
const INTERACTIVE_LIMIT_MS = 7_500;

let fake: DentalinkFake;
let settings: DentalinkSettings;

beforeAll(async () => {
  fake = await startDentalinkFake({ apiKey: API_KEY });
  settings = { apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 8_000, mockDelays: false };
});
beforeEach(() => {
  fake.reset();
  const client = buildDentalinkClient(settings);
  setDentalinkReader({
    client,
    files: createDentalinkFileFetcher({ mode: client.mode, baseUrl: fake.url, apiKey: API_KEY }),
  });
});
afterEach(() => fake.recover());
afterAll(async () => {
  delete process.env.DENTALINK_API_KEY;
  setDentalinkReader(undefined);
  await fake?.close();
  await closeDb();
});

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; elapsedMs: number }> {
  const started = performance.now();
  const result = await run();
  return { result, elapsedMs: performance.now() - started };
}

describe("interactive reads while Dentalink hangs", () => {
  it("attack: the staff lookup by RUT answers a Spanish error within 5 s, not after 8 s × 3 attempts", async () => {
    const admin = await createTestUser({ roles: ["admin"] });
    fake.hang(100);
    const { result, elapsedMs } = await timed(() =>
      settle<{ ok: boolean; message?: string }>(() =>
        staffAction(
          routeArgs(
            postAs(admin.cookie, "/dentista/ficha", {
              rut: "12.345.678-5",
              reason: "Control de ortodoncia mensual",
            }),
          ),
        ),
      ),
    );
    expect(elapsedMs).toBeLessThan(INTERACTIVE_LIMIT_MS);
    expect(result.status).toBe(502);
    expect(result.body).toMatchObject({ ok: false, message: "Error al obtener datos del paciente" });
    expect(fake.state.calls.length).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it("attack: Mi Ficha of a bound patient answers a Spanish error within 5 s", async () => {
    const patient = await createTestUser();
    const db = await getDb();
    await db.insert(clinicalRecordBindings).values({
      userId: patient.id,
      dentalinkPatientId: `hang-${randomUUID()}`,
      rut: "11111111-1",
    });
    fake.hang(100);
    const { result, elapsedMs } = await timed(() =>
      settle<PatientRecordPage>(() => recordLoader(routeArgs(requestAs(patient.cookie, "/paciente/ficha")))),
    );
    expect(elapsedMs).toBeLessThan(INTERACTIVE_LIMIT_MS);
    expect(result.body).toEqual({ view: "error", message: "Error al obtener datos del paciente" });
  }, 40_000);

  it("attack: a file whose download hangs answers within the request's deadline, not after the 8 s timeout", async () => {
    const admin = await createTestUser({ roles: ["admin"] });
    const lookup = await settle(() =>
      staffAction(
        routeArgs(
          postAs(admin.cookie, "/dentista/ficha", { rut: "12.345.678-5", reason: "Revisión de radiografía" }),
        ),
      ),
    );
    expect(lookup.status).toBe(200);
    fake.hang(100, { path: "/archivos/" });
    // The file list answers, the download never does; the root middleware gives each request this scope.
    const { result, elapsedMs } = await timed(() =>
      withDentalinkDeadline(() =>
        settle<{ message: string }>(() =>
          staffFileLoader(
            routeArgs(requestAs(admin.cookie, "/dentista/ficha/archivo/9001?rut=12345678-5"), { id: "9001" }),
          ),
        ),
      ),
    );
    expect(elapsedMs).toBeLessThan(INTERACTIVE_LIMIT_MS);
    expect(result.status).toBe(502);
    expect(result.body).toEqual({ message: "Error al obtener datos del paciente" });
  }, 40_000);

  it("one request's Dentalink calls share the one deadline: a slow first read leaves the rest only what is left", async () => {
    const client = buildDentalinkClient(settings);
    fake.setLatency(3_000);
    const { result: error, elapsedMs } = await timed(() =>
      withDentalinkDeadline(async () => {
        await client.findPatients({ rut: "12.345.678-5" });
        return client.listAppointments("1001").then(
          () => new Error("expected the deadline"),
          (caught: unknown) => caught,
        );
      }),
    );
    expect(elapsedMs).toBeLessThan(INTERACTIVE_LIMIT_MS);
    expect(error).toBeInstanceOf(IntegrationError);
    expect((error as IntegrationError).code).toBe("TIMEOUT");
  }, 40_000);
});

describe("background work keeps its own retry policy", () => {
  it("the outbox write-through waits out a hang longer than the interactive deadline and retries it", async () => {
    const db = await getDb();
    const [patient, dentist] = await Promise.all([
      createTestUser({ firstName: "Marta" }),
      createTestUser({ roles: ["dentista"], firstName: "Ignacio" }),
    ]);
    await db.delete(dentalinkDentistLinks).where(eq(dentalinkDentistLinks.dentalinkDentistId, "dr-morales"));
    await db
      .insert(dentalinkDentistLinks)
      .values({ dentistId: dentist.id, dentalinkDentistId: "dr-morales", source: "admin" });
    const date = openDays(addDays(clinicDate(new Date()), 4), 1, DEFAULT_WEEK)[0]!;
    const booked = await bookAppointment(db, patient.id, {
      treatmentSlug: "consulta",
      dentistId: dentist.id,
      date,
      time: "10:00",
    });
    // Each attempt 5.6 s (beyond the interactive 5 s); the first Dentalink call hangs, its retry is answered.
    const background = buildDentalinkClient(
      { ...settings, timeoutMs: 5_600 },
      { client: { backoff: { baseMs: 5, maxMs: 10 } } },
    );
    const handlers = {
      [DENTALINK_APPOINTMENT_KIND]: createDentalinkWriteThroughHandler({ client: () => background }),
    };
    fake.hang(1);
    const { elapsedMs } = await timed(() => deliverDue(db, handlers, new Date()));
    expect(elapsedMs).toBeGreaterThan(5_600);
    const [row] = await db.select().from(outbox).where(eq(outbox.kind, DENTALINK_APPOINTMENT_KIND));
    expect(row).toMatchObject({ status: "sent", attempts: 1 });
    expect(fake.state.calls[0]!.status).toBe("hang");
    expect(
      fake.state.appointments.filter((item) => item.fecha === date && item.hora_inicio === "10:00"),
    ).toHaveLength(1);
    expect(booked.id).toBeTruthy();
  }, 40_000);
});
