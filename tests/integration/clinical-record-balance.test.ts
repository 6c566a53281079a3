import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { charges, clinicalRecordAccess, clinicalRecordBindings, payments } from "~/db/schema";
import { setDentalinkReader } from "~/features/clinical-record/dentalink-reader.server";
import { RECORD_CLOSED_MESSAGE } from "~/features/clinical-record/record-balance.server";
import {
  BUDGET_NOT_FOUND_MESSAGE,
  type BalanceActionFailure,
  type PatientRecordPage,
} from "~/features/clinical-record/record-schema";
import { ALREADY_PAID_ONLINE_MESSAGE } from "~/features/payments/balance-payment-service.server";
import { PAYMENTS_OFF_NOTICE } from "~/features/payments/patient-payments-dto";
import { handleWebpayReturn } from "~/features/payments/payment-service.server";
import { createDentalinkClient } from "~/integrations/dentalink/dentalink-client.server";
import { createDentalinkFileFetcher } from "~/integrations/dentalink/dentalink-files.server";
import { createDentalinkMockFetch, NO_MOCK_DELAYS } from "~/integrations/dentalink/dentalink-mock";
import { createMemoryMockStore } from "~/integrations/dentalink/dentalink-mock-store";
import { createWebpayClient, type WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { startWebpayFake, type WebpayFakeServer } from "~/integrations/webpay/webpay-fake";
import {
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
} from "~/integrations/webpay/webpay-schemas";
import { action as recordAction, loader as recordLoader } from "~/routes/_patient/clinical-record";
import { postAs, requestAs } from "../setup/clients";
import { freshPatient, type FreshPatient } from "../setup/dentalink-patients";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";
import { createTestUser, type TestUser } from "../setup/users";

// 'Pagar saldo' on Mi Ficha's Pagos tab (ADR 036): a Dentalink budget's balance paid online, recorded in our database
// as a balance charge and its Webpay attempt. Dentalink is the mock (each patient a fresh one, its budgets served by
// the test so that a budget's balance can change as the clinic records payments); Webpay is the fake over HTTP.

const store = createMemoryMockStore();
const mock = createDentalinkMockFetch({ store, delays: NO_MOCK_DELAYS });
/** Dentalink's tratamientos per patient id, as the API sends them. */
const budgets = new Map<string, Array<Record<string, unknown>>>();
let dentalinkDown = false;

const dentalinkFetch: typeof globalThis.fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const own = /\/pacientes\/([^/]+)\/tratamientos$/.exec(url.pathname);
  if (own && dentalinkDown) {
    return Response.json({ error: { message: "Servicio no disponible" } }, { status: 503 });
  }
  const rows = own?.[1] ? budgets.get(decodeURIComponent(own[1])) : undefined;
  if (rows) return Response.json({ data: rows });
  return mock(input, init);
};

const holder = globalThis as typeof globalThis & { __clinicaWebpay?: WebpayClient | null };
let server: WebpayFakeServer;
let webpay: WebpayClient;

beforeAll(async () => {
  // Migrations and the auth instance are set up here, within the hook's time, not in the first test's.
  await getDb();
  await createTestUser({ firstName: "Arranque" });
  setDentalinkReader({
    client: createDentalinkClient({
      apiKey: "live-key-for-tests",
      baseUrl: "https://dentalink.test/api/v1",
      fetch: dentalinkFetch,
      retries: 0,
    }),
    files: createDentalinkFileFetcher({ mode: "mock" }),
  });
  server = await startWebpayFake();
  webpay = createWebpayClient({
    commerceCode: WEBPAY_INTEGRATION_COMMERCE_CODE,
    apiKey: WEBPAY_INTEGRATION_API_KEY,
    baseUrl: server.url,
    timeoutMs: 5_000,
  });
});

afterAll(async () => {
  holder.__clinicaWebpay = undefined;
  setDentalinkReader(undefined);
  await server?.close();
  await closeDb();
});

/** Online payment on (the app's Webpay client pointed at the fake) or off (no commerce configured). */
function onlinePayment(on: boolean) {
  holder.__clinicaWebpay = on ? webpay : null;
}

interface Bound {
  user: TestUser;
  patient: FreshPatient;
  patientId: string;
}

/** An account whose record is open on a fresh Dentalink patient with these budgets. */
async function boundPatient(rows: Array<Record<string, unknown>>): Promise<Bound> {
  const patient = await freshPatient(store, { email: true }, "Saldo");
  const patientId = String(patient.id);
  budgets.set(
    patientId,
    rows.map((row) => ({ id_paciente: patient.id, ...row })),
  );
  const user = await createTestUser({ firstName: "Saldo" });
  const db = await getDb();
  await db.insert(clinicalRecordBindings).values({
    userId: user.id,
    dentalinkPatientId: patientId,
    rut: patient.rut.replace(/\./g, ""),
  });
  return { user, patient, patientId };
}

const ORTHODONTICS = {
  id: 61001,
  nombre: "Ortodoncia",
  total: 600000,
  abonado: 450000,
  total_realizado: 600000,
  deuda: 150000,
};

function setBalance(patientId: string, budgetId: number, deuda: number) {
  budgets.set(
    patientId,
    (budgets.get(patientId) ?? []).map((row) => (row.id === budgetId ? { ...row, deuda } : row)),
  );
}

const page = (user: TestUser) =>
  settle<PatientRecordPage>(() => recordLoader(routeArgs(requestAs(user.cookie, "/paciente/ficha"))));

const pay = (user: TestUser, fields: Record<string, string>) =>
  settle<BalanceActionFailure>(() =>
    recordAction(routeArgs(postAs(user.cookie, "/paciente/ficha", { intent: "pay-balance", ...fields }))),
  );

async function balancesOf(user: TestUser) {
  const result = await page(user);
  if (result.body.view !== "record") throw new Error(`record expected, got ${result.body.view}`);
  return { onlinePayment: result.body.onlinePayment, balances: result.body.record.balances };
}

async function moneyOf(userId: string) {
  const db = await getDb();
  const [chargeRows, paymentRows] = await Promise.all([
    db.select().from(charges).where(eq(charges.patientId, userId)),
    db.select().from(payments).where(eq(payments.patientId, userId)),
  ]);
  return { charges: chargeRows, payments: paymentRows };
}

async function budgetReads(userId: string) {
  const db = await getDb();
  return db
    .select({ resourceId: clinicalRecordAccess.resourceId, outcome: clinicalRecordAccess.outcome })
    .from(clinicalRecordAccess)
    .where(and(eq(clinicalRecordAccess.actorId, userId), eq(clinicalRecordAccess.resource, "tratamientos")));
}

/** Pays the attempt a 'Pagar saldo' redirect points at, on the fake's form, and brings the payer back. */
async function completeOnWebpay(location: string | null, outcome: "approve" | "reject") {
  const paymentId = /\/pagos\/webpay\/ir\/([0-9a-f-]+)$/.exec(location ?? "")?.[1];
  if (!paymentId) throw new Error(`no checkout redirect: ${location}`);
  const db = await getDb();
  const [attempt] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!attempt?.token) throw new Error("attempt without a token");
  server.fake.pay(attempt.token, outcome);
  await handleWebpayReturn(db, { tokenWs: attempt.token }, webpay);
  return paymentId;
}

describe("the Pagos tab", () => {
  it("shows each budget with a balance, the whole balance as the amount's default, and no form without Webpay", async () => {
    onlinePayment(false);
    const { user } = await boundPatient([
      ORTHODONTICS,
      { id: 61002, nombre: "Limpieza", total: 45000, abonado: 45000, deuda: 0 },
      // No deuda: total − abonado.
      { id: 61003, nombre: "Implante unitario", total: 950000, abonado: 200000 },
      // Neither figure: nothing to pay.
      { id: 61004, nombre: "Control" },
    ]);
    const off = await balancesOf(user);
    expect(off.onlinePayment).toBe(false);
    expect(off.balances).toEqual({
      ok: true,
      items: [
        {
          budgetId: "61001",
          name: "Ortodoncia",
          balance: 150_000,
          balanceLabel: "$150.000",
          amountInput: "150.000",
          paidOnlineLabel: null,
        },
        {
          budgetId: "61003",
          name: "Implante unitario",
          balance: 750_000,
          balanceLabel: "$750.000",
          amountInput: "750.000",
          paidOnlineLabel: null,
        },
      ],
    });
    onlinePayment(true);
    expect((await balancesOf(user)).onlinePayment).toBe(true);
  });

  it("shows the demo patient's budget with its balance (the demo data and the fake serve it)", async () => {
    onlinePayment(false);
    const user = await createTestUser({ firstName: "Catalina" });
    const db = await getDb();
    await db
      .insert(clinicalRecordBindings)
      .values({ userId: user.id, dentalinkPatientId: "1001", rut: "12345678-5" });
    const { balances } = await balancesOf(user);
    expect(balances).toMatchObject({
      ok: true,
      items: [{ budgetId: "8001", name: "Ortodoncia con brackets", balanceLabel: "$120.000" }],
    });
  });

  it("says so when Dentalink's budgets cannot be read, and the other lists still show", async () => {
    onlinePayment(true);
    const { user } = await boundPatient([ORTHODONTICS]);
    dentalinkDown = true;
    try {
      const result = await page(user);
      if (result.body.view !== "record") throw new Error("record expected");
      expect(result.body.record.balances).toEqual({
        ok: false,
        message: "Error 503: Servicio no disponible",
      });
      expect(result.body.record.payments.ok).toBe(true);
    } finally {
      dentalinkDown = false;
    }
  });
});

describe("'Pagar saldo'", () => {
  it("opens a balance charge and its Webpay attempt for an amount typed the Chilean way, then goes to Webpay", async () => {
    onlinePayment(true);
    const { user } = await boundPatient([ORTHODONTICS]);
    const result = await pay(user, { budgetId: "61001", amount: "$ 15.000" });
    expect(result.status).toBe(302);
    expect(result.location).toMatch(/^\/pagos\/webpay\/ir\/[0-9a-f-]{36}$/);
    const { charges: chargeRows, payments: attempts } = await moneyOf(user.id);
    expect(chargeRows).toHaveLength(1);
    expect(chargeRows[0]).toMatchObject({
      kind: "balance",
      dentalinkBudgetId: "61001",
      concept: "Saldo de presupuesto: Ortodoncia",
      amount: 15_000,
      status: "open",
      appointmentId: null,
      registeredAtDentalinkAt: null,
    });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ chargeId: chargeRows[0]!.id, amount: 15_000, status: "created" });
    expect(result.location).toBe(`/pagos/webpay/ir/${attempts[0]!.id}`);
    expect(server.fake.find(attempts[0]!.token!)?.amount).toBe(15_000);
    // The budget was read again from Dentalink for the payment, and the read is in the access register.
    expect(await budgetReads(user.id)).toEqual([{ resourceId: "61001", outcome: "ok" }]);
  });

  it("refuses an amount over the balance, in Spanish beside the field, and writes nothing", async () => {
    onlinePayment(true);
    const { user } = await boundPatient([ORTHODONTICS]);
    const result = await pay(user, { budgetId: "61001", amount: "150.001" });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      ok: false,
      budgetId: "61001",
      fieldErrors: { amount: ["El monto no puede superar el saldo pendiente del presupuesto ($150.000)."] },
    });
    expect(await moneyOf(user.id)).toEqual({ charges: [], payments: [] });
  });

  it("refuses amounts that are not whole pesos on the server", async () => {
    onlinePayment(true);
    const { user } = await boundPatient([ORTHODONTICS]);
    for (const amount of ["", "0", "15.000,50", "-5000", "diez mil", "1e4"]) {
      const result = await pay(user, { budgetId: "61001", amount });
      expect({ amount, status: result.status }).toEqual({ amount, status: 400 });
      expect(result.body.fieldErrors?.amount).toEqual([
        "Ingresa un monto en pesos, sin decimales, mayor que cero.",
      ]);
    }
    expect(await moneyOf(user.id)).toEqual({ charges: [], payments: [] });
    expect(await budgetReads(user.id)).toEqual([]);
  });

  it("ignores a balance the browser sends: only Dentalink's, read on the server, counts", async () => {
    onlinePayment(true);
    const { user, patientId } = await boundPatient([ORTHODONTICS]);
    const forged = await pay(user, {
      budgetId: "61001",
      amount: "900.000",
      balance: "900000",
      balanceClp: "900000",
      deuda: "900000",
    });
    expect(forged.status).toBe(400);
    expect(forged.body.fieldErrors?.amount).toEqual([
      "El monto no puede superar el saldo pendiente del presupuesto ($150.000).",
    ]);
    expect((await moneyOf(user.id)).charges).toEqual([]);
    // The clinic records a payment at Dentalink meanwhile: the page the patient opened earlier still says $150.000,
    // but the server reads $40.000 now.
    setBalance(patientId, 61001, 40_000);
    const stale = await pay(user, { budgetId: "61001", amount: "150.000" });
    expect(stale.body.fieldErrors?.amount).toEqual([
      "El monto no puede superar el saldo pendiente del presupuesto ($40.000).",
    ]);
    expect((await pay(user, { budgetId: "61001", amount: "40.000" })).status).toBe(302);
  });

  it("refuses another patient's budget as not found, and writes nothing", async () => {
    onlinePayment(true);
    const owner = await boundPatient([{ ...ORTHODONTICS, id: 62001 }]);
    const other = await boundPatient([ORTHODONTICS]);
    const result = await pay(other.user, { budgetId: "62001", amount: "10.000" });
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ ok: false, budgetId: "62001", message: BUDGET_NOT_FOUND_MESSAGE });
    expect(await moneyOf(other.user.id)).toEqual({ charges: [], payments: [] });
    expect(await moneyOf(owner.user.id)).toEqual({ charges: [], payments: [] });
    expect(await budgetReads(other.user.id)).toEqual([{ resourceId: "62001", outcome: "not_found" }]);
  });

  it("refuses a closed record and an account with no record, without reading Dentalink", async () => {
    onlinePayment(true);
    const { user } = await boundPatient([ORTHODONTICS]);
    const db = await getDb();
    await db
      .update(clinicalRecordBindings)
      .set({ closedAt: new Date() })
      .where(eq(clinicalRecordBindings.userId, user.id));
    const closed = await pay(user, { budgetId: "61001", amount: "10.000" });
    expect(closed.status).toBe(403);
    expect(closed.body.message).toBe(RECORD_CLOSED_MESSAGE);
    const stranger = await createTestUser({ firstName: "Sin ficha" });
    const unbound = await pay(stranger, { budgetId: "61001", amount: "10.000" });
    expect(unbound.status).toBe(403);
    expect(await moneyOf(user.id)).toEqual({ charges: [], payments: [] });
    expect(await moneyOf(stranger.id)).toEqual({ charges: [], payments: [] });
    expect(await budgetReads(user.id)).toEqual([]);
    expect(await budgetReads(stranger.id)).toEqual([]);
  });

  it("refuses an account whose e-mail is not verified", async () => {
    onlinePayment(true);
    const user = await createTestUser({ verified: false });
    const result = await pay(user, { budgetId: "61001", amount: "10.000" });
    expect(result.status).toBe(403);
    expect(await moneyOf(user.id)).toEqual({ charges: [], payments: [] });
  });

  it("with online payment off, says so and neither reads Dentalink nor writes anything", async () => {
    onlinePayment(false);
    const { user } = await boundPatient([ORTHODONTICS]);
    const result = await pay(user, { budgetId: "61001", amount: "10.000" });
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({ ok: false, budgetId: "61001", message: PAYMENTS_OFF_NOTICE });
    expect(await moneyOf(user.id)).toEqual({ charges: [], payments: [] });
    expect(await budgetReads(user.id)).toEqual([]);
  });

  it("answers Dentalink's failure in Spanish, registers the failed read and writes nothing", async () => {
    onlinePayment(true);
    const { user } = await boundPatient([ORTHODONTICS]);
    dentalinkDown = true;
    try {
      const result = await pay(user, { budgetId: "61001", amount: "10.000" });
      expect(result.status).toBe(502);
      expect(result.body.message).toBe("Error 503: Servicio no disponible");
    } finally {
      dentalinkDown = false;
    }
    expect(await moneyOf(user.id)).toEqual({ charges: [], payments: [] });
    expect(await budgetReads(user.id)).toEqual([{ resourceId: "61001", outcome: "error" }]);
  });
});

describe("what was paid online and Dentalink does not show yet", () => {
  it("is taken off the balance until staff record it at Dentalink", async () => {
    onlinePayment(true);
    const { user, patientId } = await boundPatient([ORTHODONTICS]);
    const first = await pay(user, { budgetId: "61001", amount: "50.000" });
    await completeOnWebpay(first.location, "approve");
    const [paid] = (await moneyOf(user.id)).charges;
    expect(paid).toMatchObject({ status: "paid", amount: 50_000 });

    // Dentalink still owes $150.000: the page and the server count $100.000.
    expect((await balancesOf(user)).balances).toMatchObject({
      ok: true,
      items: [
        { balance: 100_000, balanceLabel: "$100.000", amountInput: "100.000", paidOnlineLabel: "$50.000" },
      ],
    });
    const over = await pay(user, { budgetId: "61001", amount: "100.001" });
    expect(over.body.fieldErrors?.amount).toEqual([
      "El monto no puede superar el saldo pendiente del presupuesto ($100.000).",
    ]);

    // Staff record it at Dentalink ('Registrar en Dentalink'): Dentalink's balance now shows it, nothing is taken off.
    const db = await getDb();
    await db.update(charges).set({ registeredAtDentalinkAt: new Date() }).where(eq(charges.id, paid!.id));
    setBalance(patientId, 61001, 100_000);
    expect((await balancesOf(user)).balances).toMatchObject({
      ok: true,
      items: [{ balance: 100_000, paidOnlineLabel: null }],
    });
    expect((await pay(user, { budgetId: "61001", amount: "100.000" })).status).toBe(302);
  });

  it("two tabs paying the whole balance at once: one goes to Webpay, the other is refused", async () => {
    onlinePayment(true);
    const { user } = await boundPatient([ORTHODONTICS]);
    const results = await Promise.all([
      pay(user, { budgetId: "61001", amount: "150.000" }),
      pay(user, { budgetId: "61001", amount: "150.000" }),
    ]);
    expect(results.map((result) => result.status).toSorted()).toEqual([302, 409]);
    expect((await moneyOf(user.id)).charges).toHaveLength(1);
  });

  it("a payment on Webpay's form holds its amount; once it fails, a new payment replaces it", async () => {
    onlinePayment(true);
    const { user } = await boundPatient([ORTHODONTICS]);
    const first = await pay(user, { budgetId: "61001", amount: "150.000" });
    expect(first.status).toBe(302);
    // A second tab while the first is on Webpay's form: the whole balance is taken.
    const second = await pay(user, { budgetId: "61001", amount: "1" });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(ALREADY_PAID_ONLINE_MESSAGE);
    expect((await moneyOf(user.id)).charges).toHaveLength(1);

    await completeOnWebpay(first.location, "reject");
    expect((await balancesOf(user)).balances).toMatchObject({
      ok: true,
      items: [{ balance: 150_000, paidOnlineLabel: null }],
    });
    const retry = await pay(user, { budgetId: "61001", amount: "150.000" });
    expect(retry.status).toBe(302);
    const { charges: chargeRows } = await moneyOf(user.id);
    expect(chargeRows.map((row) => row.status).toSorted()).toEqual(["open", "void"]);
  });
});
