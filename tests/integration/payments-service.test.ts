import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  appointments,
  charges,
  outbox,
  paymentRefunds,
  payments,
  treatmentDeposits,
  treatmentsCatalog,
} from "~/db/schema";
import { addDays, clinicDate, clinicInstant } from "~/domain/clinic-time";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import { availableSlots } from "~/features/appointments/appointment-service.server";
import { deliverDue } from "~/features/outbox/outbox.server";
import {
  bookWithPayment,
  cancelWithSettlement,
  payCharge,
} from "~/features/payments/booking-payment-service.server";
import {
  handleWebpayReturn,
  reconcilePayments,
  releaseExpiredHolds,
} from "~/features/payments/payment-service.server";
import {
  createWebpayRefundHandler,
  requestRefund,
  WEBPAY_REFUND_KIND,
} from "~/features/payments/refund-service.server";
import { createWebpayClient, type WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { startWebpayFake, type WebpayFakeServer } from "~/integrations/webpay/webpay-fake";
import {
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
} from "~/integrations/webpay/webpay-schemas";
import { AppError } from "~/lib/base/errors";
import { createTestUser, type TestUser } from "../setup/factories";

// The payments service against the Webpay fake on 127.0.0.1 (ADR 036): a deposit holds a booking, the payer's return
// and the reconciliation settle each attempt once, refunds go through the outbox, cancellations settle the money.

let server: WebpayFakeServer;
let webpay: WebpayClient;
const MINUTE = 60_000;

beforeAll(async () => {
  server = await startWebpayFake();
  const db = await getDb();
  const [implant] = await db.select().from(treatmentsCatalog).where(eq(treatmentsCatalog.slug, "implantes"));
  if (!implant) throw new Error("no implant treatment");
  // Implants ask a 20 % deposit, as in the demo.
  await db.insert(treatmentDeposits).values({ treatmentId: implant.id, kind: "percent", value: 20 });
});
afterAll(async () => {
  await server?.close();
  await closeDb();
});
beforeEach(() => {
  webpay = createWebpayClient({
    commerceCode: WEBPAY_INTEGRATION_COMMERCE_CODE,
    apiKey: WEBPAY_INTEGRATION_API_KEY,
    baseUrl: server.url,
    // The fake answers from this process's event loop, which PGlite blocks while it runs a statement: on a
    // loaded machine 2 s was not always enough (CI). The timeout tests pass their own.
    timeoutMs: 10_000,
    sleep: async () => undefined,
  });
});

let dayIndex = 0;
/** A fresh open weekday at least three days ahead for each booking, so no test takes another's slot. */
function nextDay() {
  dayIndex += 1;
  return openDays(addDays(clinicDate(new Date()), 3), 40, DEFAULT_WEEK)[dayIndex] ?? "";
}

async function people() {
  const patient = await createTestUser({ firstName: "Paga" });
  const dentist = await createTestUser({ roles: ["dentista"], firstName: "Cobra" });
  return { patient, dentist };
}

async function bookImplant(patient: TestUser, dentist: TestUser, date = nextDay(), time = "10:00") {
  const db = await getDb();
  const result = await bookWithPayment(
    db,
    patient.id,
    { treatment: "implantes", dentist: dentist.id, date, time },
    webpay,
  );
  if (result.kind !== "payment") throw new Error("expected a deposit");
  const [attempt] = await db.select().from(payments).where(eq(payments.id, result.paymentId));
  if (!attempt?.token) throw new Error("attempt without a token");
  return { result, attempt, token: attempt.token, date, time, appointmentId: result.booked.id };
}

async function state(paymentId: string) {
  const db = await getDb();
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (!payment) throw new Error("no payment");
  const [charge] = await db.select().from(charges).where(eq(charges.id, payment.chargeId));
  const [appointment] = charge?.appointmentId
    ? await db.select().from(appointments).where(eq(appointments.id, charge.appointmentId))
    : [];
  return { payment, charge, appointment };
}

async function notices(paymentId: string) {
  const db = await getDb();
  return db
    .select()
    .from(outbox)
    .where(eq(outbox.idempotencyKey, `payment-notice:payment_received:${paymentId}`));
}

describe("a deposit at booking", () => {
  it("holds the slot as 'Pendiente de pago' with the deposit counted on the server, and confirms it once paid", async () => {
    const { patient, dentist } = await people();
    const { result, attempt, token } = await bookImplant(patient, dentist);
    const before = await state(result.paymentId);
    expect(before.appointment?.status).toBe("pending_payment");
    expect(before.appointment?.agreedPrice).toBeGreaterThan(0);
    // 20 % of the implant's price, whole pesos.
    expect(attempt.amount).toBe(Math.round((before.appointment?.agreedPrice ?? 0) * 0.2));
    expect(server.fake.find(token)?.amount).toBe(attempt.amount);

    server.fake.pay(token, "approve");
    const db = await getDb();
    await handleWebpayReturn(db, { tokenWs: token }, webpay);
    const after = await state(result.paymentId);
    expect(after.payment.status).toBe("authorized");
    expect(after.payment.authorizationCode).toBeTruthy();
    expect(after.charge?.status).toBe("paid");
    expect(after.appointment?.status).toBe("confirmed");
  });

  it("credits a return hit twice (and two racing returns) exactly once and commits once", async () => {
    const { patient, dentist } = await people();
    const { result, token } = await bookImplant(patient, dentist);
    server.fake.pay(token, "approve");
    const db = await getDb();
    await Promise.all([
      handleWebpayReturn(db, { tokenWs: token }, webpay),
      handleWebpayReturn(db, { tokenWs: token }, webpay),
    ]);
    await handleWebpayReturn(db, { tokenWs: token }, webpay);
    const commits = server.fake.state.calls.filter(
      (call) => call.operation === "commit" && call.path.includes(token),
    );
    expect(commits).toHaveLength(1);
    expect((await state(result.paymentId)).payment.status).toBe("authorized");
    expect(await notices(result.paymentId)).toHaveLength(1);
    const refunds = await db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, result.paymentId));
    expect(refunds).toHaveLength(0);
  });

  it.each([
    ["rejected by the bank", "reject", "rejected"],
    ["abandoned on the form", "abort", "aborted"],
    ["left until the form timed out", "timeout", "expired"],
  ] as const)("releases the slot when the payment is %s", async (_label, outcome, expected) => {
    const { patient, dentist } = await people();
    const { result, token, date, time } = await bookImplant(patient, dentist);
    const back = server.fake.pay(token, outcome);
    const fields = back.fields as Record<string, string>;
    const db = await getDb();
    const found = await handleWebpayReturn(
      db,
      {
        tokenWs: fields.token_ws,
        tbkToken: fields.TBK_TOKEN,
        tbkOrder: fields.TBK_ORDEN_COMPRA,
        tbkSession: fields.TBK_ID_SESION,
      },
      webpay,
    );
    expect(found?.paymentId).toBe(result.paymentId);
    const after = await state(result.paymentId);
    expect(after.payment.status).toBe(expected);
    expect(after.appointment?.status).toBe("payment_failed");
    expect(after.charge?.status).toBe("open");
    const slots = await availableSlots(db, { treatmentSlug: "implantes", dentistId: dentist.id, date });
    expect(slots.map((slot) => slot.time)).toContain(time);
  });

  it("ignores a return with a token or order it did not issue", async () => {
    const db = await getDb();
    expect(await handleWebpayReturn(db, { tokenWs: "f".repeat(64) }, webpay)).toBeNull();
    expect(await handleWebpayReturn(db, { tbkOrder: "RCFORGED", tbkSession: "x" }, webpay)).toBeNull();
  });

  it("books a released slot again when its payment comes back after the hold, or refunds it when the slot is taken", async () => {
    const { patient, dentist } = await people();
    const db = await getDb();
    const later = new Date(Date.now() + 30 * MINUTE);

    const free = await bookImplant(patient, dentist);
    expect(await releaseExpiredHolds(db, later)).toBeGreaterThanOrEqual(1);
    expect((await state(free.result.paymentId)).appointment?.status).toBe("payment_failed");
    server.fake.pay(free.token, "approve");
    await handleWebpayReturn(db, { tokenWs: free.token }, webpay, later);
    const rebooked = await state(free.result.paymentId);
    expect(rebooked.payment.status).toBe("authorized");
    expect(rebooked.appointment?.status).toBe("confirmed");

    const other = await createTestUser({ firstName: "Rápida" });
    const lost = await bookImplant(patient, dentist);
    await releaseExpiredHolds(db, later);
    // Someone else books the freed slot before the first payer's return arrives.
    await bookWithPayment(
      db,
      other.id,
      { treatment: "consulta", dentist: dentist.id, date: lost.date, time: lost.time },
      webpay,
    );
    server.fake.pay(lost.token, "approve");
    await handleWebpayReturn(db, { tokenWs: lost.token }, webpay, later);
    const refunded = await state(lost.result.paymentId);
    expect(refunded.payment.status).toBe("authorized");
    expect(refunded.charge?.status).toBe("void");
    expect(refunded.appointment?.status).toBe("payment_failed");
    const refunds = await db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, lost.result.paymentId));
    expect(refunds.map((refund) => refund.amount)).toEqual([lost.attempt.amount]);
  });

  it("settles a commit that timed out through the reconciliation, crediting once", async () => {
    const { patient, dentist } = await people();
    const { result, token } = await bookImplant(patient, dentist);
    server.fake.pay(token, "approve");
    const slow = createWebpayClient({
      commerceCode: WEBPAY_INTEGRATION_COMMERCE_CODE,
      apiKey: WEBPAY_INTEGRATION_API_KEY,
      baseUrl: server.url,
      timeoutMs: 200,
      sleep: async () => undefined,
    });
    server.fake.fail({ operation: "commit", times: 1, delayMs: 600 });
    const db = await getDb();
    await handleWebpayReturn(db, { tokenWs: token }, slow);
    const pending = await state(result.paymentId);
    expect(pending.payment.status).toBe("created");
    expect(pending.payment.lastError).toMatch(/timeout/);
    expect(pending.appointment?.status).toBe("pending_payment");

    // A minute later the claim has lapsed: the job commits again, Webpay says it already did, the status settles it.
    await new Promise((resolve) => setTimeout(resolve, 700));
    await reconcilePayments(db, webpay, new Date(Date.now() + 2 * MINUTE));
    const settled = await state(result.paymentId);
    expect(settled.payment.status).toBe("authorized");
    expect(settled.payment.settledBy).toBe("reconciliation");
    // The staff list counts the job's looks at the attempt, not the payer's return.
    expect(settled.payment.checks).toBe(1);
    expect(settled.appointment?.status).toBe("confirmed");
    expect(await notices(result.paymentId)).toHaveLength(1);
  });

  it("lets two tabs share the attempt still open on the form rather than pay twice", async () => {
    const { patient, dentist } = await people();
    const { result, attempt } = await bookImplant(patient, dentist);
    const db = await getDb();
    const again = await payCharge(db, patient.id, attempt.chargeId, webpay);
    expect(again).toBe(result.paymentId);
  });

  it("refuses another patient's charge as if it did not exist", async () => {
    const { patient, dentist } = await people();
    const { attempt } = await bookImplant(patient, dentist);
    const intruder = await createTestUser({ firstName: "Intrusa" });
    const db = await getDb();
    const error = await payCharge(db, intruder.id, attempt.chargeId, webpay).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("NOT_FOUND");
    const rows = await db.select().from(payments).where(eq(payments.chargeId, attempt.chargeId));
    expect(rows).toHaveLength(1);
  });
});

describe("after a crash (the process killed mid-settlement)", () => {
  it("between the payer's return and our commit: the reconciliation commits and credits once", async () => {
    const { patient, dentist } = await people();
    const { result, token } = await bookImplant(patient, dentist);
    server.fake.pay(token, "approve");
    const db = await getDb();
    // What the database holds when the process dies right after recording the return, before calling commit.
    await db.update(payments).set({ returnedAt: new Date() }).where(eq(payments.id, result.paymentId));
    expect((await state(result.paymentId)).appointment?.status).toBe("pending_payment");
    await reconcilePayments(db, webpay);
    await reconcilePayments(db, webpay);
    const after = await state(result.paymentId);
    expect(after.payment.status).toBe("authorized");
    expect(after.appointment?.status).toBe("confirmed");
    expect(await notices(result.paymentId)).toHaveLength(1);
  });

  it("between Webpay's commit and our write: the status answer credits it once, and nothing unpaid is confirmed", async () => {
    const { patient, dentist } = await people();
    const paid = await bookImplant(patient, dentist);
    const unpaid = await bookImplant(patient, dentist);
    server.fake.pay(paid.token, "approve");
    // Webpay committed (the call went out) but the process died before writing the outcome; its claim was left.
    await webpay.commit(paid.token);
    const db = await getDb();
    const died = new Date();
    await db
      .update(payments)
      .set({ returnedAt: died, commitClaimedAt: died })
      .where(eq(payments.id, paid.result.paymentId));
    // While the claim is fresh nobody commits again; once it lapses, the job settles it from the status.
    await reconcilePayments(db, webpay, new Date(died.getTime() + 10_000));
    expect((await state(paid.result.paymentId)).payment.status).toBe("created");
    await reconcilePayments(db, webpay, new Date(died.getTime() + 2 * MINUTE));
    const after = await state(paid.result.paymentId);
    expect(after.payment.status).toBe("authorized");
    expect(after.appointment?.status).toBe("confirmed");
    expect(await notices(paid.result.paymentId)).toHaveLength(1);
    // The other booking was never paid: once its form and hold are over it is expired and released, not confirmed.
    await reconcilePayments(db, webpay, new Date(Date.now() + 30 * MINUTE));
    const never = await state(unpaid.result.paymentId);
    expect(never.payment.status).toBe("expired");
    expect(never.appointment?.status).toBe("payment_failed");
  });
});

async function paidBooking() {
  const { patient, dentist } = await people();
  const booking = await bookImplant(patient, dentist);
  server.fake.pay(booking.token, "approve");
  const db = await getDb();
  await handleWebpayReturn(db, { tokenWs: booking.token }, webpay);
  return { patient, dentist, ...booking };
}

async function deliverRefunds() {
  const db = await getDb();
  return deliverDue(
    db,
    { [WEBPAY_REFUND_KIND]: createWebpayRefundHandler(() => webpay) },
    new Date(Date.now() + MINUTE),
  );
}

describe("refunds and cancellations", () => {
  it("refuses a refund over the amount paid, and refunds through Webpay what is allowed", async () => {
    const { result, attempt, token } = await paidBooking();
    const db = await getDb();
    const over = await db
      .transaction((tx) =>
        requestRefund(tx, {
          paymentId: result.paymentId,
          amount: attempt.amount + 1,
          reason: "prueba",
          requestedBy: null,
        }),
      )
      .catch((caught: unknown) => caught);
    expect(over).toBeInstanceOf(AppError);
    expect((over as AppError).message).toMatch(/no puede superar lo pagado/);

    await db.transaction((tx) =>
      requestRefund(tx, { paymentId: result.paymentId, amount: 1000, reason: "ajuste", requestedBy: null }),
    );
    expect(await deliverRefunds()).toBeGreaterThanOrEqual(1);
    const after = await state(result.paymentId);
    expect(after.payment.status).toBe("partially_refunded");
    expect(after.payment.refundedAmount).toBe(1000);
    expect(server.fake.find(token)?.status).toMatch(/NULLIFIED|REVERSED/);
  });

  it("refunds the whole deposit when the patient cancels in time", async () => {
    const { patient, appointmentId, attempt, result } = await paidBooking();
    const db = await getDb();
    const cancelled = await cancelWithSettlement(db, patient.id, appointmentId);
    expect(cancelled.late).toBe(false);
    await deliverRefunds();
    const after = await state(result.paymentId);
    expect(after.payment.status).toBe("refunded");
    expect(after.payment.refundedAmount).toBe(attempt.amount);
    const fees = await db
      .select()
      .from(charges)
      .where(and(eq(charges.appointmentId, appointmentId), eq(charges.kind, "late_cancellation")));
    expect(fees).toHaveLength(0);
  });

  it("applies the deposit to a late-cancellation fee and leaves the rest to pay", async () => {
    const { patient, appointmentId, attempt, result, date, time } = await paidBooking();
    const db = await getDb();
    const lateNow = new Date(clinicInstant(date, time).getTime() - 3 * 60 * MINUTE);
    const cancelled = await cancelWithSettlement(db, patient.id, appointmentId, lateNow);
    expect(cancelled.late).toBe(true);
    const [fee] = await db
      .select()
      .from(charges)
      .where(and(eq(charges.appointmentId, appointmentId), eq(charges.kind, "late_cancellation")));
    // 50 % of the implant against a 20 % deposit: the deposit is applied whole, 30 % is still owed.
    expect(fee?.amount).toBe(cancelled.fee);
    expect(fee?.creditedAmount).toBe(attempt.amount);
    expect(fee?.status).toBe("open");
    const refunds = await db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, result.paymentId));
    expect(refunds).toHaveLength(0);
    const pendingNotice = await db
      .select()
      .from(outbox)
      .where(eq(outbox.idempotencyKey, `payment-notice:fee_pending:${fee?.id}`));
    expect(pendingNotice).toHaveLength(1);
  });
});
