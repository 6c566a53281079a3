import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import { payments } from "~/db/schema";
import { PAYMENTS_OFF_NOTICE, type PatientPaymentsPage } from "~/features/payments/patient-payments-dto";
import { payOwnCharge } from "~/features/payments/patient-payments-service.server";
import { createWebpayClient } from "~/integrations/webpay/webpay-client.server";
import {
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
} from "~/integrations/webpay/webpay-schemas";
import { isAppError } from "~/lib/base/errors";
import { loader as receiptLoader } from "~/routes/_patient/payment-receipt";
import { action as paymentsAction, loader as paymentsLoader } from "~/routes/_patient/payments";
import { postAs, requestAs } from "../setup/clients";
import {
  createTestUser,
  insertCharge,
  insertPayment,
  insertRefund,
  type ChargeRow,
  type PaymentRow,
  type TestUser,
} from "../setup/factories";
import { pdfText } from "../setup/pdf-text";
import { routeArgs } from "../setup/route-args";
import { settle, thrownResponse } from "../setup/route-results";

// Mis Pagos (ADR 036): the page's data, 'Pagar' and the receipt, each attack written as the request an attacker
// would send with their own session.

afterAll(closeDb);

// Transbank's public integration commerce against a port nobody listens on: enough for 'Pagar' to open an attempt
// (its creation fails at once and the attempt expires) without any Webpay in the test.
const unreachableWebpay = createWebpayClient({
  commerceCode: WEBPAY_INTEGRATION_COMMERCE_CODE,
  apiKey: WEBPAY_INTEGRATION_API_KEY,
  baseUrl: "http://127.0.0.1:9",
  // The fake answers from this process's event loop, which PGlite blocks while it runs a statement: on a
  // loaded machine 2 s was not always enough (CI). The timeout tests pass their own.
  timeoutMs: 10_000,
  statusRetries: 0,
});

let ana: TestUser;
let beto: TestUser;
let staff: TestUser;
let openCharge: ChargeRow;
let lateFee: ChargeRow;
let paid: PaymentRow;
let rejected: PaymentRow;

async function page(user: TestUser) {
  const result = await settle<PatientPaymentsPage>(() =>
    paymentsLoader(routeArgs(requestAs(user.cookie, "/paciente/pagos"))),
  );
  expect(result.status).toBe(200);
  return result.body;
}

async function receipt(user: TestUser | undefined, paymentId: string) {
  return receiptLoader(
    routeArgs(requestAs(user?.cookie, `/paciente/pagos/${paymentId}/comprobante`), { paymentId }),
  ) as Promise<Response>;
}

async function attemptsOn(chargeId: string) {
  const db = await getDb();
  return db.select().from(payments).where(eq(payments.chargeId, chargeId));
}

beforeAll(async () => {
  ana = await createTestUser({ firstName: "Ana", columns: { lastName: "Muñoz", rut: "12345678-5" } });
  beto = await createTestUser({ firstName: "Beto" });
  staff = await createTestUser({ firstName: "Asesora", roles: ["asesor"] });
  openCharge = await insertCharge({ patientId: ana.id, concept: "Presupuesto: Ortodoncia", amount: 120_000 });
  lateFee = await insertCharge({
    patientId: ana.id,
    kind: "late_cancellation",
    concept: "Cancelación tardía: Implante dental",
    amount: 40_000,
    creditedAmount: 15_000,
  });
  const deposit = await insertCharge({
    patientId: ana.id,
    kind: "deposit",
    concept: "Abono: Limpieza dental",
    amount: 20_000,
    status: "paid",
    createdAt: new Date("2026-01-10T12:00:00Z"),
  });
  rejected = await insertPayment(deposit, {
    status: "rejected",
    createdAt: new Date("2026-01-15T12:00:00Z"),
  });
  paid = await insertPayment(deposit, {
    status: "partially_refunded",
    refundedAmount: 5_000,
    authorizationCode: "1213",
    paymentTypeCode: "VN",
    cardLast4: "6623",
    installments: 0,
    transactionDate: new Date("2026-01-15T12:30:00Z"),
    createdAt: new Date("2026-01-15T12:29:00Z"),
  });
  await insertRefund(paid, { amount: 5_000, status: "done", doneAt: new Date("2026-01-16T13:00:00Z") });
});

describe("Mis Pagos (/paciente/pagos)", () => {
  it("lists the patient's charges, attempts and refunds with their Spanish labels", async () => {
    const data = await page(ana);
    // Online payment is off in the integration environment (no demo mode): the page says so.
    expect(data.onlinePayment).toBe(false);
    expect(data.charges).toHaveLength(3);
    const fee = data.charges.find((charge) => charge.id === lateFee.id)!;
    expect(fee).toMatchObject({
      kindLabel: "Cargo por cancelación tardía",
      amountLabel: "$40.000",
      creditedLabel: "$15.000",
      due: 25_000,
      dueLabel: "$25.000",
      statusLabel: "Pendiente",
      payable: true,
    });
    expect(data.charges.find((charge) => charge.id === openCharge.id)).toMatchObject({
      kindLabel: "Pago de presupuesto",
      due: 120_000,
      payable: true,
    });
    expect(data.charges.find((charge) => charge.kindLabel === "Abono")).toMatchObject({
      statusLabel: "Pagado",
      due: 0,
      payable: false,
    });

    expect(data.payments.map((payment) => payment.id)).toEqual([paid.id, rejected.id]);
    expect(data.payments[0]).toMatchObject({
      dateLabel: "15-01-2026, 09:30",
      concept: "Abono: Limpieza dental",
      amountLabel: "$20.000",
      statusLabel: "Reembolsado parcialmente",
      methodLabel: "Crédito",
      cardLabel: "···· 6623",
      receiptUrl: `/paciente/pagos/${paid.id}/comprobante`,
    });
    expect(data.payments[1]).toMatchObject({ statusLabel: "Rechazado", receiptUrl: null, methodLabel: null });
    expect(data.refunds).toEqual([
      expect.objectContaining({
        paymentId: paid.id,
        dateLabel: "16-01-2026, 10:00",
        amountLabel: "$5.000",
        statusLabel: "Reembolsado",
      }),
    ]);
  });

  it("shows another patient nothing of Ana's", async () => {
    expect(await page(beto)).toEqual({ onlinePayment: false, charges: [], payments: [], refunds: [] });
    expect(await page(staff)).toEqual({ onlinePayment: false, charges: [], payments: [], refunds: [] });
  });

  it("sends an anonymous visitor to sign in", async () => {
    const anonymous = await thrownResponse(() =>
      paymentsLoader(routeArgs(requestAs(undefined, "/paciente/pagos"))),
    );
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toBe(`/auth?redirectTo=${encodeURIComponent("/paciente/pagos")}`);
    const post = await thrownResponse(() =>
      paymentsAction(
        routeArgs(postAs(undefined, "/paciente/pagos", { intent: "pay", chargeId: openCharge.id })),
      ),
    );
    expect(post.status).toBe(302);
    expect(await attemptsOn(openCharge.id)).toHaveLength(0);
  });

  it("refuses 'Pagar' on another patient's charge with a 404 and writes no attempt", async () => {
    for (const intruder of [beto, staff]) {
      const result = await settle<{ ok: false; message: string }>(() =>
        paymentsAction(
          routeArgs(postAs(intruder.cookie, "/paciente/pagos", { intent: "pay", chargeId: openCharge.id })),
        ),
      );
      expect(result.status).toBe(404);
      expect(result.body.message).toBe("No encontramos ese cobro.");
    }
    const garbage = await settle(() =>
      paymentsAction(
        routeArgs(postAs(beto.cookie, "/paciente/pagos", { intent: "pay", chargeId: "1 OR 1=1" })),
      ),
    );
    expect(garbage.status).toBe(404);
    // Even with online payment on, the service refuses before Webpay is asked.
    const refused = await payOwnCharge(await getDb(), beto.id, openCharge.id, unreachableWebpay).catch(
      (error: unknown) => error,
    );
    expect(isAppError(refused) && refused.code).toBe("NOT_FOUND");
    expect(await attemptsOn(openCharge.id)).toHaveLength(0);
  });

  it("answers the owner's 'Pagar' with the payments-off notice while Webpay is not configured", async () => {
    const result = await settle<{ ok: false; message: string }>(() =>
      paymentsAction(
        routeArgs(postAs(ana.cookie, "/paciente/pagos", { intent: "pay", chargeId: openCharge.id })),
      ),
    );
    expect(result.status).toBe(409);
    expect(result.body.message).toContain("no está disponible");
    expect(PAYMENTS_OFF_NOTICE).toContain("Puedes pagar en la clínica");
    expect(await attemptsOn(openCharge.id)).toHaveLength(0);
  });

  it("opens an attempt on the owner's own open charge, for what is due", async () => {
    const paymentId = await payOwnCharge(await getDb(), ana.id, lateFee.id, unreachableWebpay);
    const [attempt] = await attemptsOn(lateFee.id);
    expect(attempt).toMatchObject({ id: paymentId, patientId: ana.id, amount: 25_000 });
  });
});

describe("Comprobante de pago (/paciente/pagos/:paymentId/comprobante)", () => {
  it("gives the owner a PDF with the amount, buy order and card", async () => {
    const response = await receipt(ana, paid.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="comprobante-${paid.buyOrder}.pdf"`,
    );
    const text = pdfText(Buffer.from(await response.arrayBuffer()));
    for (const expected of [
      "Comprobante de pago",
      "Ana Muñoz",
      "12.345.678-5",
      "15-01-2026, 09:30",
      "Abono: Limpieza dental",
      "$20.000",
      paid.buyOrder,
      "1213",
      "···· 6623",
      "Crédito",
      "Reembolsos",
      "$5.000",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("is a 404 for another patient, a staff member, an attempt never authorized and a malformed id", async () => {
    for (const [user, id] of [
      [beto, paid.id],
      [staff, paid.id],
      [ana, rejected.id],
      [ana, "not-a-uuid"],
      [ana, "00000000-0000-4000-8000-000000000000"],
    ] as const) {
      expect((await thrownResponse(() => receipt(user, id))).status).toBe(404);
    }
  });

  it("sends an anonymous visitor to sign in", async () => {
    const result = await thrownResponse(() => receipt(undefined, paid.id));
    expect(result.status).toBe(302);
    expect(result.location).toContain("/auth?redirectTo=");
  });
});
