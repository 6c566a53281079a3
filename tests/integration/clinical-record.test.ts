import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  clinicalRecordAccess,
  clinicalRecordBindings,
  dentalinkDentistLinks,
  outbox,
  users,
  whatsAppMessages,
} from "~/db/schema";
import { RECORD_CODE_SENT_MESSAGE, RECORD_CODE_TTL_MS } from "~/domain/record-code";
import { setDentalinkReader } from "~/features/clinical-record/dentalink-reader.server";
import type { PatientRecordPage } from "~/features/clinical-record/record-schema";
import { verifyRecordCode } from "~/features/clinical-record/record-binding.server";
import { createDentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import { createDentalinkFileFetcher } from "~/integrations/dentalink/dentalink-files.server";
import { createDentalinkMockFetch, NO_MOCK_DELAYS } from "~/integrations/dentalink/dentalink-mock";
import { createMemoryMockStore } from "~/integrations/dentalink/dentalink-mock-store";
import { action as recordAction, loader as recordLoader } from "~/routes/_patient/clinical-record";
import { loader as fileLoader } from "~/routes/_patient/clinical-record-file";
import { action as staffAction, loader as staffLoader } from "~/routes/_dentist/clinical-record";
import { loader as staffFileLoader } from "~/routes/_dentist/clinical-record-file";
import { loader as auditLoader } from "~/routes/_admin/audit-log";
import { postAs, requestAs } from "../setup/clients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { mailTextToSend, placeholdersToSend } from "../setup/queued-secrets";
import { createTestUser, type TestUser } from "../setup/users";

// The RUT portal (ADR 021) against the real database and the Dentalink client in mock mode (the same simulator
// the fake serves), with no delays.

const DEMO_RUT = "12.345.678-5"; // patient 1001: e-mail only (paciente@clinica.example)
const MOBILE_RUT = "12.678.579-8"; // patient 1000: mobile only
const UNKNOWN_RUT = "15.509.661-6"; // valid, not in Dentalink

function mockReader(fetch?: typeof globalThis.fetch) {
  const client = fetch
    ? createDentalinkClient({
        apiKey: "live-key-for-tests",
        baseUrl: "https://dentalink.test/api/v1",
        fetch,
        retries: 0,
      })
    : createDentalinkClient({ mock: { delays: NO_MOCK_DELAYS } });
  return { client, files: createDentalinkFileFetcher({ mode: "mock" }) };
}

beforeAll(() => setDentalinkReader(mockReader()));
afterAll(async () => {
  setDentalinkReader(undefined);
  await closeDb();
});

const page = (user: TestUser, path = "/paciente/ficha") =>
  settle<PatientRecordPage>(() => recordLoader(routeArgs(requestAs(user.cookie, path))));

const post = (user: TestUser, fields: Record<string, string>) =>
  settle<{ ok: boolean; message?: string; fieldErrors?: Record<string, string[]> }>(() =>
    recordAction(routeArgs(postAs(user.cookie, "/paciente/ficha", fields))),
  );

const file = (user: TestUser, id: string, query = "") =>
  settle(() =>
    fileLoader(routeArgs(requestAs(user.cookie, `/paciente/ficha/archivo/${id}${query}`), { id })),
  );

/** The newest code e-mailed to `to`, as the mail will say it (the row keeps it sealed). */
async function mailedCode(to: string): Promise<string> {
  const code = /\b(\d{6})\b/.exec(await mailTextToSend(to, "Tu código de acceso"))?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

/** The newest code queued by WhatsApp for `userId`'s request, as it will be sent (stored: "[oculto]"). */
async function whatsAppCode(userId: string): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(whatsAppMessages)
    .where(eq(whatsAppMessages.userId, userId))
    .orderBy(desc(whatsAppMessages.createdAt))
    .limit(1);
  if (!row) throw new Error("no WhatsApp code");
  expect(row.templatePlaceholders).toEqual(["[oculto]"]);
  const [code] = await placeholdersToSend(row.id);
  if (!code) throw new Error("no WhatsApp code");
  return code;
}

async function registerOf(actorId: string) {
  const db = await getDb();
  return db.select().from(clinicalRecordAccess).where(eq(clinicalRecordAccess.actorId, actorId));
}

/** Binds `user` to the RUT's patient through the real flow. */
async function bind(user: TestUser, rut: string, readCode: () => Promise<string>) {
  const sent = await post(user, { intent: "rut", rut });
  expect(sent.status).toBe(302);
  const verified = await post(user, { intent: "code", code: await readCode() });
  expect(verified).toMatchObject({ status: 302, location: "/paciente/ficha" });
}

describe("access", () => {
  it("sends a visitor without a session to /auth and back", async () => {
    const result = await settle(() => recordLoader(routeArgs(requestAs(undefined, "/paciente/ficha"))));
    expect(result.location).toBe("/auth?redirectTo=%2Fpaciente%2Fficha");
  });

  it("tells an account with an unverified e-mail to verify it first, and refuses its lookups", async () => {
    const user = await createTestUser({ verified: false });
    expect((await page(user)).body).toEqual({ view: "unverified" });
    const refused = await post(user, { intent: "rut", rut: DEMO_RUT });
    expect(refused.status).toBe(403);
    expect(await registerOf(user.id)).toEqual([]);
  });

  it("answers each invalid RUT with the spec's message, on the server", async () => {
    const user = await createTestUser();
    const cases: Array<[string, string]> = [
      ["", "Por favor ingresa tu RUT"],
      ["1234567", "El RUT debe tener entre 8 y 9 caracteres"],
      ["1234567K5", "El cuerpo del RUT debe ser numérico"],
      ["12345678-X", "El dígito verificador debe ser un número o K"],
      ["12.345.678-4", "El RUT ingresado no es válido"],
    ];
    for (const [rut, message] of cases) {
      const result = await post(user, { intent: "rut", rut });
      expect(result.status).toBe(400);
      expect(result.body.fieldErrors?.rut).toEqual([message]);
    }
  });
});

describe("enumeration safety", () => {
  it("answers an unknown RUT exactly like a known one, and shows the code view either way", async () => {
    const [known, unknown] = await Promise.all([createTestUser(), createTestUser()]);
    const a = await post(known, { intent: "rut", rut: MOBILE_RUT });
    const b = await post(unknown, { intent: "rut", rut: UNKNOWN_RUT });
    expect({
      status: a.status,
      location: a.location,
      body: a.body,
      cookies: a.headers.getSetCookie(),
    }).toEqual({
      status: b.status,
      location: b.location,
      body: b.body,
      cookies: b.headers.getSetCookie(),
    });
    const viewA = await page(known);
    const viewB = await page(unknown);
    expect(viewA.body).toEqual({ view: "code", message: RECORD_CODE_SENT_MESSAGE });
    expect(viewB.body).toEqual(viewA.body);
    expect(RECORD_CODE_SENT_MESSAGE).toBe(
      "Si el RUT está registrado en la clínica, enviamos un código de 6 dígitos al teléfono o correo que la clínica tiene registrado.",
    );
    // Only the known patient's mobile got a code (by WhatsApp); the unknown RUT's code can never be right.
    expect(await whatsAppCode(known.id)).toMatch(/^\d{6}$/);
    for (const code of ["000000", "123456"]) {
      expect((await post(unknown, { intent: "code", code })).status).toBe(400);
    }
    // Both lookups were audited.
    expect((await registerOf(unknown.id)).map((row) => [row.resource, row.outcome])).toEqual([
      ["codigo", "not_found"],
    ]);
  });
});

describe("the one-time code", () => {
  it("expires after 10 minutes", async () => {
    const user = await createTestUser();
    await post(user, { intent: "rut", rut: DEMO_RUT });
    const code = await mailedCode("paciente@clinica.example");
    const db = await getDb();
    const reader = { ...user, lastName: "Test", emailVerified: true, roles: ["paciente"] };
    const later = new Date(Date.now() + RECORD_CODE_TTL_MS + 1000);
    await expect(
      verifyRecordCode(db, reader, code, { ip: "203.0.113.7", rateIp: "203.0.113.7", now: later }),
    ).rejects.toMatchObject({ code: "VALIDATION", message: "El código venció. Solicita uno nuevo." });
    const [binding] = await db
      .select()
      .from(clinicalRecordBindings)
      .where(eq(clinicalRecordBindings.userId, user.id));
    expect(binding).toBeUndefined();
  });

  it("allows 5 attempts, then even the right code needs a new one", async () => {
    const user = await createTestUser();
    await post(user, { intent: "rut", rut: DEMO_RUT });
    const code = await mailedCode("paciente@clinica.example");
    const wrong = code === "000000" ? "111111" : "000000";
    const messages: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = await post(user, { intent: "code", code: wrong });
      messages.push(result.body.message ?? "");
    }
    expect(messages[0]).toBe("El código no es correcto. Te quedan 4 intentos.");
    expect(messages[4]).toBe("Superaste los 5 intentos. Solicita un código nuevo.");
    const right = await post(user, { intent: "code", code });
    expect(right.status).toBe(400);
    expect(right.body.message).toBe("Superaste los 5 intentos. Solicita un código nuevo.");
    expect((await page(user)).body).toEqual({ view: "rut" });
  });
});

describe("bound patients", () => {
  let catalina: TestUser;
  let jorge: TestUser;

  beforeAll(async () => {
    [catalina, jorge] = await Promise.all([createTestUser({ firstName: "Catalina" }), createTestUser()]);
    await bind(catalina, DEMO_RUT, () => mailedCode("paciente@clinica.example"));
    await bind(jorge, MOBILE_RUT, () => whatsAppCode(jorge.id));
  });

  it("shows the record: the patient, the five lists, es-CL dates, CLP without decimals, badge tones, progress", async () => {
    const result = await page(catalina);
    if (result.body.view !== "record") throw new Error(`unexpected view ${result.body.view}`);
    const { record } = result.body;
    expect(record.patient).toMatchObject({ name: "Catalina Soto", rut: "12.345.678-5" });
    for (const list of [
      record.appointments,
      record.payments,
      record.treatments,
      record.documents,
      record.xrays,
    ]) {
      expect(list.ok && list.items.length).toBeGreaterThanOrEqual(2);
    }
    if (!record.payments.ok || !record.treatments.ok || !record.appointments.ok) throw new Error("lists");
    expect(record.payments.items.map((item) => item.amount)).toEqual(["$45.000", "$360.000", "$120.000"]);
    expect(record.payments.items.map((item) => item.status.tone)).toEqual(["green", "green", "yellow"]);
    // Dentalink's words are labels, never "pagado" or "en_proceso" (issue 24, item 16).
    for (const item of [...record.payments.items, ...record.treatments.items]) {
      expect(item.status.label).toMatch(/^[A-ZÁÉÍÓÚÑ][^_]*$/);
    }
    expect(record.appointments.items[0]).toMatchObject({
      date: "12 de noviembre de 2025",
      status: { label: "Atendido", tone: "green" },
    });
    expect(record.treatments.items.map((item) => item.progress)).toEqual([40, 100]);
    expect(record.documents.ok && record.documents.items[0]?.href).toBe("/paciente/ficha/archivo/9001");
    expect(JSON.stringify(record)).not.toContain("dentalink.invalid");
  });

  it("names a Dentalink dentist who is one of ours with our title (Dra.), linked or by name; any other as Dentalink does", async () => {
    // Issue 24 item 11: the title is recorded on our side (users.professional_title), never guessed from a name.
    const db = await getDb();
    const isidora = await createTestUser({ firstName: "Isidora", roles: ["dentista"] });
    await db
      .update(users)
      .set({ lastName: "Campos", professionalTitle: "dra" })
      .where(eq(users.id, isidora.id));
    await db
      .insert(dentalinkDentistLinks)
      .values({ dentistId: isidora.id, dentalinkDentistId: "dr-campos", source: "admin" });
    const result = await page(jorge);
    if (result.body.view !== "record") throw new Error(`unexpected view ${result.body.view}`);
    const { appointments } = result.body.record;
    if (!appointments.ok) throw new Error("appointments");
    const doctorOf = (treatment: string) =>
      appointments.items.find((item) => item.treatment === treatment)?.doctor;
    expect(doctorOf("Endodoncia pieza 46")).toBe("Dra. Isidora Campos");
    expect(doctorOf("Control")).toBe("Andrés Morales");

    // One of ours by the same name, not linked yet (mock mode, a clinic before its first sync): named as ours,
    // and reading the record links nobody (links are made where bookings are written through).
    const andres = await createTestUser({ firstName: "Andrés", roles: ["dentista"] });
    await db
      .update(users)
      .set({ lastName: "Morales", professionalTitle: "dr" })
      .where(eq(users.id, andres.id));
    const again = await page(jorge);
    if (again.body.view !== "record" || !again.body.record.appointments.ok) throw new Error("appointments");
    const control = again.body.record.appointments.items.filter((item) => item.treatment === "Control");
    expect(control.map((item) => item.doctor)).toEqual(["Dr. Andrés Morales"]);
    const linksOfAndres = await db
      .select()
      .from(dentalinkDentistLinks)
      .where(eq(dentalinkDentistLinks.dentistId, andres.id));
    expect(linksOfAndres).toEqual([]);
  });

  it("writes a register row for every read, in the same request", async () => {
    const before = (await registerOf(catalina.id)).length;
    await page(catalina);
    const rows = (await registerOf(catalina.id)).slice(before);
    expect(rows.map((row) => row.resource).toSorted()).toEqual(
      ["citas", "documentos", "paciente", "pagos", "radiografias", "tratamientos"].toSorted(),
    );
    expect(
      rows.every(
        (row) => row.rut === "12345678-5" && row.actorRole === "paciente" && row.ip === "203.0.113.7",
      ),
    ).toBe(true);
    await file(catalina, "9001");
    const [fileRow] = (await registerOf(catalina.id)).filter((row) => row.resource === "archivo");
    expect(fileRow).toMatchObject({ resourceId: "9001", outcome: "ok" });
  });

  it("streams the patient's own file with no-store and nothing of the vendor", async () => {
    const result = await settle<string>(() =>
      fileLoader(routeArgs(requestAs(catalina.cookie, "/paciente/ficha/archivo/9001"), { id: "9001" })),
    );
    expect(result.status).toBe(200);
    expect(result.headers.get("cache-control")).toBe("no-store");
    expect(result.headers.get("content-type")).toBe("application/pdf");
    expect(String(result.body).startsWith("%PDF-1.4")).toBe(true);
    expect([...result.headers.values()].join(" ")).not.toMatch(/dentalink|token/i);
    const png = await file(catalina, "9003", "?descargar=1");
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.headers.get("content-disposition")).toMatch(/^attachment;/);
  });

  it("attack: a patient bound to A cannot reach B's lists or files by any parameter", async () => {
    // B's files by id, however written.
    for (const id of ["9101", "9103", "9005", "%39%31%30%31", "9101?rut=12678579-8", "../1000/archivos"]) {
      const result = await file(catalina, id);
      expect({ id, status: result.status }).toEqual({ id, status: 404 });
    }
    // B's RUT in the query or the form: still A's own record, or a refusal before any lookup.
    const viaQuery = await page(catalina, "/paciente/ficha?rut=12678579-8&patientId=1000&id_paciente=1000");
    expect(viaQuery.body.view === "record" && viaQuery.body.record.patient.rut).toBe("12.345.678-5");
    const before = (await registerOf(catalina.id)).length;
    const viaForm = await post(catalina, { intent: "rut", rut: MOBILE_RUT, patientId: "1000" });
    expect(viaForm.status).toBe(409);
    const newRows = (await registerOf(catalina.id)).slice(before);
    expect(newRows.filter((row) => row.rut === "12678579-8")).toEqual([]);
    // And B sees B's own record.
    const jorgePage = await page(jorge);
    expect(jorgePage.body.view === "record" && jorgePage.body.record.patient.name).toBe(
      "Jorge Muñoz Araneda",
    );
  });

  it("refuses a second account for a bound patient after the right code, and tells the clinic", async () => {
    const other = await createTestUser();
    await post(other, { intent: "rut", rut: DEMO_RUT });
    const code = await mailedCode("paciente@clinica.example");
    const result = await post(other, { intent: "code", code });
    expect(result.status).toBe(409);
    expect(result.body.message).toBe(
      "Esta ficha clínica ya está vinculada a otra cuenta. Avisamos a la clínica para que te contacte.",
    );
    const db = await getDb();
    const notices = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(sql`${outbox.payload}->>'subject' like 'Ficha clínica ya vinculada%'`);
    expect(notices.some((row) => String(row.payload.text).includes(other.email))).toBe(true);
  });

  it("'Cerrar Sesión' closes the record on the server; the binding stays and the password reopens it", async () => {
    const closed = await post(catalina, { intent: "close" });
    expect(closed).toMatchObject({ status: 302, location: "/paciente/ficha" });
    expect((await page(catalina)).body).toEqual({ view: "closed", password: true });
    const reopened = await post(catalina, { intent: "password", password: catalina.password });
    expect(reopened).toMatchObject({ status: 302, location: "/paciente/ficha" });
    expect((await page(catalina)).body.view).toBe("record");
  });

  it("shows the patient which staff opened the record, by name", async () => {
    const dentist = await createTestUser({ roles: ["dentista"], firstName: "Andrea" });
    const staff = await settle(() =>
      staffAction(
        routeArgs(
          postAs(dentist.cookie, "/dentista/ficha", {
            rut: MOBILE_RUT,
            reason: "Control de endodoncia pieza 46",
          }),
        ),
      ),
    );
    expect(staff.status).toBe(200);
    const jorgePage = await page(jorge);
    expect(jorgePage.body.view === "record" && jorgePage.body.accesses).toEqual([
      expect.objectContaining({
        who: "Andrea Test",
        role: "Dentista",
        reason: "Control de endodoncia pieza 46",
      }),
    ]);
    expect(JSON.stringify(jorgePage.body)).not.toContain("203.0.113.7");
  });

  it("shows a failed list as its own error without hiding the others (spec 001 §8)", async () => {
    const mock = createDentalinkMockFetch({ store: createMemoryMockStore(), delays: NO_MOCK_DELAYS });
    const failingPayments: typeof globalThis.fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes("/pagos")) {
        return Response.json({ error: { message: "Servicio no disponible" } }, { status: 503 });
      }
      return mock(input, init);
    };
    setDentalinkReader(mockReader(failingPayments));
    try {
      const result = await page(catalina);
      if (result.body.view !== "record") throw new Error("record expected");
      expect(result.body.record.payments).toEqual({
        ok: false,
        message: "Error 503: Servicio no disponible",
      });
      expect(result.body.record.appointments.ok).toBe(true);
      expect(result.body.record.documents.ok).toBe(true);
      const rows = await registerOf(catalina.id);
      expect(rows.some((row) => row.resource === "pagos" && row.outcome === "error")).toBe(true);
    } finally {
      setDentalinkReader(mockReader());
    }
  });
});

describe("files without a binding", () => {
  it("are a 404", async () => {
    const user = await createTestUser();
    expect((await file(user, "9001")).status).toBe(404);
    expect(await registerOf(user.id)).toEqual([]);
  });
});

describe("staff", () => {
  it("gives an asesor a 403", async () => {
    const asesor = await createTestUser({ roles: ["asesor"] });
    expect(
      (await settle(() => staffLoader(routeArgs(requestAs(asesor.cookie, "/dentista/ficha"))))).status,
    ).toBe(403);
    const posted = await settle(() =>
      staffAction(
        routeArgs(postAs(asesor.cookie, "/dentista/ficha", { rut: DEMO_RUT, reason: "Quiero ver la ficha" })),
      ),
    );
    expect(posted.status).toBe(403);
    expect(await registerOf(asesor.id)).toEqual([]);
  });

  it("requires a reason of 10 characters, and records it on every read and file", async () => {
    const admin = await createTestUser({ roles: ["admin"], firstName: "Rodrigo" });
    const short = await settle<{ fieldErrors?: Record<string, string[]> }>(() =>
      staffAction(routeArgs(postAs(admin.cookie, "/dentista/ficha", { rut: DEMO_RUT, reason: "porque" }))),
    );
    expect(short.status).toBe(400);
    expect(short.body.fieldErrors?.reason).toEqual(["Indica el motivo del acceso (al menos 10 caracteres)."]);
    // Without a reasoned lookup first, a file is a 404.
    const early = await settle(() =>
      staffFileLoader(
        routeArgs(requestAs(admin.cookie, "/dentista/ficha/archivo/9001?rut=12345678-5"), { id: "9001" }),
      ),
    );
    expect(early.status).toBe(404);
    const opened = await settle(() =>
      staffAction(
        routeArgs(
          postAs(admin.cookie, "/dentista/ficha", { rut: DEMO_RUT, reason: "Revisión de presupuesto" }),
        ),
      ),
    );
    expect(opened.status).toBe(200);
    const fileResult = await settle(() =>
      staffFileLoader(
        routeArgs(requestAs(admin.cookie, "/dentista/ficha/archivo/9001?rut=12345678-5"), { id: "9001" }),
      ),
    );
    expect(fileResult.status).toBe(200);
    // /admin/auditoria filters the register by patient.
    const audit = await auditLoader(routeArgs(requestAs(admin.cookie, "/admin/auditoria?rut=12.345.678-5")));
    expect(audit.register.entries.length).toBeGreaterThanOrEqual(7);
    expect(new Set(audit.register.entries.map((entry) => entry.rut))).toEqual(new Set(["12.345.678-5"]));
    expect(audit.register.entries.some((entry) => entry.role === "Paciente")).toBe(true);
    expect(audit.register.entries.some((entry) => entry.reason === "Revisión de presupuesto")).toBe(true);
    const rows = await registerOf(admin.id);
    expect(rows).toHaveLength(7);
    expect(rows.every((row) => row.reason === "Revisión de presupuesto" && row.actorRole === "admin")).toBe(
      true,
    );
  });
});

/** The database's own message for a refused statement (drizzle wraps it in `cause`). */
async function refusal(statement: PromiseLike<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    let cause: unknown = error;
    while (cause instanceof Error && cause.cause !== undefined) cause = cause.cause;
    return cause instanceof Error ? cause.message : String(cause);
  }
  return "not refused";
}

describe("the access register", () => {
  it("refuses UPDATE, DELETE and TRUNCATE in the database itself", async () => {
    const db = await getDb();
    const user = await createTestUser();
    await post(user, { intent: "rut", rut: UNKNOWN_RUT });
    const [row] = await registerOf(user.id);
    expect(row).toBeDefined();
    expect(
      await refusal(
        db.update(clinicalRecordAccess).set({ ip: "0.0.0.0" }).where(eq(clinicalRecordAccess.id, row!.id)),
      ),
    ).toBe("clinical_record_access is append-only: UPDATE refused");
    expect(await refusal(db.delete(clinicalRecordAccess).where(eq(clinicalRecordAccess.id, row!.id)))).toBe(
      "clinical_record_access is append-only: DELETE refused",
    );
    expect(await refusal(db.execute(sql`truncate clinical_record_access`))).toBe(
      "clinical_record_access is append-only: TRUNCATE refused",
    );
    // Deleting the reader's account leaves the register untouched.
    await db.delete(users).where(eq(users.id, user.id));
    expect(await registerOf(user.id)).toHaveLength(1);
  });
});
