import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clinicalRecordBindings, users } from "~/db/schema";
import type { PatientRecordPage } from "~/features/clinical-record/record-schema";
import { createMemoryMockStore } from "~/integrations/dentalink/dentalink-mock-store";
import { clientForm, clientGet, randomIp } from "../setup/clients";
import { freshPatient, type FreshPatient } from "../setup/dentalink-patients";
import { openPatientInbox, type PatientInbox } from "../setup/patient-inbox";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import type { TestUser } from "../setup/users";

// ADR 029: the patient's access list, a RUT's code budget and Mi Ficha's 'Cerrar Sesión',
// each written as the attack. Codes are read where the patient reads them (the fake provider's phone, the fake
// SMTP server's mailbox); every patient is a fresh one of the Dentalink mock.

const store = createMemoryMockStore();

async function importApp() {
  const [client, reader, dentalink, files, mock, recordRoute, fileRoute, testUsers, clinic] =
    await Promise.all([
      import("~/db/client.server"),
      import("~/features/clinical-record/dentalink-reader.server"),
      import("~/integrations/dentalink/dentalink-client.server"),
      import("~/integrations/dentalink/dentalink-files.server"),
      import("~/integrations/dentalink/dentalink-mock"),
      import("~/routes/_patient/clinical-record"),
      import("~/routes/_patient/clinical-record-file"),
      import("../setup/users"),
      import("~/lib/base/env.server"),
    ]);
  reader.setDentalinkReader({
    client: dentalink.createDentalinkClient({ mock: { delays: mock.NO_MOCK_DELAYS, store } }),
    files: files.createDentalinkFileFetcher({ mode: "mock" }),
  });
  return {
    getDb: client.getDb,
    closeDb: client.closeDb,
    recordAction: recordRoute.action,
    recordLoader: recordRoute.loader,
    fileLoader: fileRoute.loader,
    createTestUser: testUsers.createTestUser,
    clinicAdminEmail: () => clinic.clinicFacts().adminEmail,
    resetReader: () => reader.setDentalinkReader(undefined),
  };
}

let inbox: PatientInbox;
let app: Awaited<ReturnType<typeof importApp>>;

beforeAll(async () => {
  inbox = await openPatientInbox("record-attacks");
  app = await importApp();
  await app.getDb();
});

afterAll(async () => {
  app?.resetReader();
  await inbox?.close();
  await app?.closeDb();
});

/** A browser: one account's session cookie, the cookies the app set since, and one client address. */
interface Browser {
  user: TestUser;
  ip: string;
  cookies: Map<string, string>;
}

function browser(user: TestUser): Browser {
  const cookies = new Map(
    user.cookie.split("; ").map((pair) => [pair.slice(0, pair.indexOf("=")), pair] as [string, string]),
  );
  return { user, ip: randomIp(), cookies };
}

const cookieHeader = (client: Browser) => [...client.cookies.values()].join("; ");

/** Keeps (or drops, when expired) what the app set, as a browser does. */
function keepCookies(client: Browser, headers: Headers) {
  for (const cookie of headers.getSetCookie()) {
    const pair = cookie.split(";")[0]!;
    const name = pair.slice(0, pair.indexOf("="));
    if (/max-age=0/i.test(cookie) || pair.endsWith("=")) client.cookies.delete(name);
    else client.cookies.set(name, pair);
  }
}

async function post(client: Browser, fields: Record<string, string>) {
  const result = await settle<{ ok: boolean; message?: string; fieldErrors?: Record<string, string[]> }>(() =>
    app.recordAction(
      routeArgs(clientForm("/paciente/ficha", fields, { cookie: cookieHeader(client), ip: client.ip })),
    ),
  );
  keepCookies(client, result.headers);
  return result;
}

async function page(client: Browser) {
  return settle<PatientRecordPage>(() =>
    app.recordLoader(
      routeArgs(clientGet("/paciente/ficha", { cookie: cookieHeader(client), ip: client.ip })),
    ),
  );
}

async function file(client: Browser, id: string) {
  return settle(() =>
    app.fileLoader(
      routeArgs(clientGet(`/paciente/ficha/archivo/${id}`, { cookie: cookieHeader(client), ip: client.ip }), {
        id,
      }),
    ),
  );
}

/** The code the patient's phone or mailbox received last. */
async function receivedCode(patient: FreshPatient): Promise<string> {
  await inbox.deliverAll();
  if (patient.phone) return inbox.lastTemplate("codigo_acceso_ficha", patient.phone)[0]!;
  return inbox.mailedCode(patient.email!);
}

/** Asks for a code for `patient`'s RUT and enters what the patient received. */
async function bind(client: Browser, patient: FreshPatient) {
  expect(await post(client, { intent: "rut", rut: patient.rut })).toMatchObject({ status: 302 });
  const verified = await post(client, { intent: "code", code: await receivedCode(patient) });
  expect(verified).toMatchObject({ status: 302, location: "/paciente/ficha" });
}

const account = async (firstName: string) => browser(await app.createTestUser({ firstName }));

describe("item 1: the patient's access list", () => {
  it("the attack chain: another account binds the victim's RUT with the code and reads the record; the victim's list shows the binding and the reads", async () => {
    const victimRecord = await freshPatient(store, { mobile: true }, "Camila");
    const intruder = await account("Intruso");
    // The intruder got the code somehow (the asesor read it on /funnel/mensajes).
    await bind(intruder, victimRecord);
    const read = await page(intruder);
    expect(read.body.view).toBe("record");

    // The clinic removes the impostor's account; the victim binds her own record and looks at who opened it.
    const db = await app.getDb();
    await db.delete(users).where(eq(users.id, intruder.user.id));
    const victim = await account("Camila");
    await bind(victim, victimRecord);
    const own = await page(victim);
    if (own.body.view !== "record") throw new Error(`unexpected view ${own.body.view}`);
    const byIntruder = own.body.accesses.filter((access) => access.who === "Intruso Test");
    expect(byIntruder.map((access) => [access.role, access.what])).toEqual([
      ["Paciente", "Abrió tu ficha"],
      ["Paciente", "Vinculó tu RUT a su cuenta"],
    ]);
    // The victim's own binding and reads are not listed as someone else's.
    expect(own.body.accesses.filter((access) => access.who === "Camila Test")).toEqual([]);
  });
});

/** What a fresh account is answered to six code requests for `rut`. */
async function answersTo(rut: string) {
  const client = await account("Prueba");
  const seen: unknown[] = [];
  for (let attempt = 0; attempt < 6; attempt++) {
    const result = await post(client, { intent: "rut", rut });
    seen.push([result.status, result.location, result.body, result.headers.get("retry-after") !== null]);
  }
  return seen;
}

describe("item 5: a RUT's code budget", () => {
  it("the attack: an account spends its code requests on the victim's RUT; the victim's own account still gets a code and binds", async () => {
    const victimRecord = await freshPatient(store, { mobile: true }, "Rosa");
    const attacker = await account("Atacante");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      statuses.push((await post(attacker, { intent: "rut", rut: victimRecord.rut })).status);
    }
    expect(statuses.slice(-1)).toEqual([429]);

    const victim = await account("Rosa");
    await bind(victim, victimRecord);
    expect((await page(victim)).body.view).toBe("record");
  });

  it("keeps the answers the same for a RUT the clinic has and one it has not, up to the limit and past it", async () => {
    const known = await freshPatient(store, { mobile: true });
    expect(await answersTo("15.509.661-6")).toEqual(await answersTo(known.rut));
  });

  it("tells the clinic by e-mail, once, when a RUT is hammered by many accounts", async () => {
    const target = await freshPatient(store, { mobile: true });
    for (let index = 0; index < 4; index++) {
      const client = await account(`Cuenta${index}`);
      for (let attempt = 0; attempt < 3; attempt++) await post(client, { intent: "rut", rut: target.rut });
    }
    await inbox.deliverAll();
    const alerts = inbox.smtp.messages.filter(
      (mail) => mail.to.includes(app.clinicAdminEmail()) && mail.text.includes(target.rut),
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toMatch(/^Solicitudes repetidas de código/);
  });
});

describe("item 14: 'Cerrar Sesión' in Mi Ficha", () => {
  let owner: Browser;
  let record: FreshPatient;

  // Each test its own bound account (a code request counts against the account's budget for its RUT).
  beforeEach(async () => {
    record = await freshPatient(store, { email: true }, "Elena");
    owner = await account("Elena");
    await bind(owner, record);
  });

  it("the attack: after closing, the same form post with only the RUT opens no record data", async () => {
    expect((await page(owner)).body.view).toBe("record");
    expect((await post(owner, { intent: "close" })).status).toBe(302);

    const reopened = await post(owner, { intent: "rut", rut: record.rut });
    expect(reopened.status).toBeLessThan(500);
    const after = await page(owner);
    expect(after.body.view).not.toBe("record");
    expect(JSON.stringify(after.body)).not.toContain("Elena Prueba");
    // Dropping whatever the close left in the browser changes nothing: the close is on the server.
    const fresh = browser(owner.user);
    expect((await page(fresh)).body.view).not.toBe("record");
    expect((await post(fresh, { intent: "rut", rut: record.rut })).status).toBeLessThan(500);
    expect(JSON.stringify((await page(fresh)).body)).not.toContain("Elena Prueba");
  });

  it("reopens with the account's password, not with a wrong one", async () => {
    await post(owner, { intent: "close" });
    const wrong = await post(owner, { intent: "password", password: "no-es-la-clave" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("La contraseña no es correcta.");
    expect((await page(owner)).body).toEqual({ view: "closed", password: true });
    const right = await post(owner, { intent: "password", password: owner.user.password });
    expect(right).toMatchObject({ status: 302, location: "/paciente/ficha" });
    expect((await page(owner)).body.view).toBe("record");
  });

  it("reopens with a new code sent to the contact on file", async () => {
    await post(owner, { intent: "close" });
    expect((await post(owner, { intent: "reopen-code" })).status).toBe(302);
    expect((await page(owner)).body.view).toBe("code");
    const verified = await post(owner, { intent: "code", code: await receivedCode(record) });
    expect(verified).toMatchObject({ status: 302, location: "/paciente/ficha" });
    expect((await page(owner)).body.view).toBe("record");
  });

  it("keeps the files closed too", async () => {
    await post(owner, { intent: "close" });
    expect((await file(owner, "1")).status).toBe(404);
    const db = await app.getDb();
    const [binding] = await db
      .select()
      .from(clinicalRecordBindings)
      .where(and(eq(clinicalRecordBindings.userId, owner.user.id), like(clinicalRecordBindings.rut, "%-%")));
    expect(binding).toBeDefined();
  });
});
