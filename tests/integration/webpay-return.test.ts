import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "~/db/client.server";
import {
  appointments,
  charges,
  paymentRefunds,
  payments,
  treatmentDeposits,
  treatmentsCatalog,
} from "~/db/schema";
import { addDays, clinicDate } from "~/domain/clinic-time";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import type { AppointmentActionResult } from "~/features/appointments/appointment-schema";
import { bookWithPayment } from "~/features/payments/booking-payment-service.server";
import type { PaymentResultView } from "~/features/payments/components/payment-pages";
import { webpayReturnResponse } from "~/features/payments/webpay-return-route.server";
import { createWebpayClient, type WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { startWebpayFake, type WebpayFakeServer } from "~/integrations/webpay/webpay-fake";
import {
  WEBPAY_INTEGRATION_API_KEY,
  WEBPAY_INTEGRATION_COMMERCE_CODE,
} from "~/integrations/webpay/webpay-schemas";
import { action as appointmentsAction } from "~/routes/_patient/appointments";
import { loader as checkoutLoader } from "~/routes/_patient/payment-checkout";
import { loader as resultLoader } from "~/routes/_patient/payment-result";
import { loader as returnLoader } from "~/routes/_public/webpay-return";
import { randomIp, requestAs } from "../setup/clients";
import { createStaffMember, createTestUser, type TestUser } from "../setup/factories";
import { routeArgs } from "../setup/route-args";
import { settle } from "../setup/route-results";

/**
 * The payer's way back from Webpay (ADR 036) against the Webpay fake over HTTP, through Transbank's SDK: the return
 * route keyed only by our token, the result and checkout pages of the owner only, and a return posted twice.
 */

afterAll(closeDb);

const DEPOSIT = 20_000;
let server: WebpayFakeServer;
let webpay: WebpayClient;
let dentist: TestUser;
let owner: TestUser;
let stranger: TestUser;
let dayIndex = 0;

beforeAll(async () => {
  server = await startWebpayFake();
  webpay = createWebpayClient({
    commerceCode: WEBPAY_INTEGRATION_COMMERCE_CODE,
    apiKey: WEBPAY_INTEGRATION_API_KEY,
    baseUrl: server.url,
    timeoutMs: 5_000,
  });
  dentist = await createStaffMember(["dentista"]);
  owner = await createTestUser({ firstName: "Dueña" });
  stranger = await createTestUser({ firstName: "Otra" });
  const db = await getDb();
  const [consulta] = await db
    .select({ id: treatmentsCatalog.id })
    .from(treatmentsCatalog)
    .where(eq(treatmentsCatalog.slug, "consulta"));
  await db
    .insert(treatmentDeposits)
    .values({ treatmentId: consulta!.id, kind: "fixed", value: DEPOSIT })
    .onConflictDoUpdate({ target: treatmentDeposits.treatmentId, set: { kind: "fixed", value: DEPOSIT } });
});

afterAll(async () => server?.close());

/** A booking of `patient` held 'Pendiente de pago', with its attempt open on the fake's form. */
async function heldBooking(patient: TestUser) {
  // A fresh open weekday (three days ahead or later) per booking: the first open day on or after today + n would give
  // a Saturday's and a Sunday's n the same Monday, whose 10:00 the earlier booking still holds.
  const date = openDays(addDays(clinicDate(new Date()), 3), 40, DEFAULT_WEEK)[dayIndex++]!;
  const result = await bookWithPayment(
    await getDb(),
    patient.id,
    { treatment: "consulta", dentist: dentist.id, date, time: "10:00" },
    webpay,
  );
  if (result.kind !== "payment") throw new Error("expected a deposit");
  const payment = await paymentRow(result.paymentId);
  return { paymentId: result.paymentId, appointmentId: result.booked.id, token: payment!.token! };
}

async function paymentRow(id: string) {
  const [row] = await (await getDb()).select().from(payments).where(eq(payments.id, id));
  return row;
}

async function appointmentStatus(id: string) {
  const [row] = await (
    await getDb()
  )
    .select({ status: appointments.status })
    .from(appointments)
    .where(eq(appointments.id, id));
  return row?.status;
}

/** Webpay's browser POST to return_url: no cookie, no session, from the payer's address. */
function returnPost(fields: Record<string, string>, ip = randomIp()) {
  return new Request("http://localhost:3000/pagos/webpay/retorno", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-clinica-client-ip": ip },
    body: new URLSearchParams(fields),
  });
}

function resultPage(user: TestUser, paymentId: string) {
  return settle<PaymentResultView>(() =>
    resultLoader(routeArgs(requestAs(user.cookie, `/paciente/pagos/resultado/${paymentId}`), { paymentId })),
  );
}

function checkoutPage(user: TestUser, paymentId: string) {
  return settle(() =>
    checkoutLoader(routeArgs(requestAs(user.cookie, `/pagos/webpay/ir/${paymentId}`), { paymentId })),
  );
}

describe("Webpay return", () => {
  it("an approved payment comes back: 303 to the result page, the booking confirmed, the page tells it", async () => {
    const held = await heldBooking(owner);
    expect(await appointmentStatus(held.appointmentId)).toBe("pending_payment");

    const checkout = await checkoutPage(owner, held.paymentId);
    expect(checkout.status).toBe(200);
    expect(checkout.body).toMatchObject({ token: held.token, amountLabel: "$20.000" });

    const back = server.fake.pay(held.token, "approve");
    const response = await webpayReturnResponse(returnPost(back.fields), webpay);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/paciente/pagos/resultado/${held.paymentId}`);
    expect(await appointmentStatus(held.appointmentId)).toBe("confirmed");

    const page = await resultPage(owner, held.paymentId);
    expect(page.body).toMatchObject({
      state: "authorized",
      amountLabel: "$20.000",
      appointmentConfirmed: true,
      cardLast4: "6623",
    });
    expect(page.body.authorizationCode).toBeTruthy();

    // Settled: the checkout page now sends to the result.
    const again = await checkoutPage(owner, held.paymentId);
    expect(again.location).toBe(`/paciente/pagos/resultado/${held.paymentId}`);
  });

  it("a return posted twice credits once (one commit at Webpay, the charge paid once, no refund)", async () => {
    const held = await heldBooking(owner);
    const back = server.fake.pay(held.token, "approve");
    const commitsBefore = server.fake.state.calls.filter((call) => call.operation === "commit").length;
    const [first, second] = await Promise.all([
      webpayReturnResponse(returnPost(back.fields), webpay),
      webpayReturnResponse(returnPost(back.fields), webpay),
    ]);
    const third = await webpayReturnResponse(returnPost(back.fields), webpay);
    for (const response of [first, second, third]) expect(response.status).toBe(303);
    const commits = server.fake.state.calls.filter((call) => call.operation === "commit").length;
    expect(commits - commitsBefore).toBe(1);
    const payment = await paymentRow(held.paymentId);
    expect(payment?.status).toBe("authorized");
    const db = await getDb();
    const [charge] = await db.select().from(charges).where(eq(charges.id, payment!.chargeId));
    expect(charge?.status).toBe("paid");
    const refunds = await db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, held.paymentId));
    expect(refunds).toHaveLength(0);
    expect(await appointmentStatus(held.appointmentId)).toBe("confirmed");
  });

  it("an unknown token, or a forged order, is a plain 404 and changes nothing", async () => {
    const held = await heldBooking(owner);
    const before = await paymentRow(held.paymentId);
    const callsBefore = server.fake.state.calls.length;
    const forged: Array<Record<string, string>> = [
      { token_ws: `01ab${"0".repeat(60)}` },
      { TBK_TOKEN: "desconocido" },
      { TBK_ORDEN_COMPRA: "orden-falsa", TBK_ID_SESION: "sesion-falsa" },
      { TBK_ORDEN_COMPRA: before!.buyOrder, TBK_ID_SESION: "otra-sesion" },
      {},
      { token_ws: "x".repeat(65) },
    ];
    for (const fields of forged) {
      const response = await webpayReturnResponse(returnPost(fields), webpay);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("No encontramos ese pago");
    }
    // Through the route module too (GET, Webpay's other way back).
    const viaRoute = await settle(() =>
      returnLoader(
        routeArgs(
          new Request(`http://localhost:3000/pagos/webpay/retorno?token_ws=${"ab".repeat(32)}`, {
            headers: { "x-clinica-client-ip": randomIp() },
          }),
        ),
      ),
    );
    expect(viaRoute.status).toBe(404);
    expect(server.fake.state.calls.length).toBe(callsBefore);
    expect(await paymentRow(held.paymentId)).toEqual(before);
    expect(await appointmentStatus(held.appointmentId)).toBe("pending_payment");
  });

  it("a payment aborted on Webpay's form releases the slot and offers 'Reintentar pago'", async () => {
    const held = await heldBooking(owner);
    const back = server.fake.pay(held.token, "abort");
    const response = await webpayReturnResponse(returnPost(back.fields), webpay);
    expect(response.status).toBe(303);
    expect(await appointmentStatus(held.appointmentId)).toBe("payment_failed");
    const page = await resultPage(owner, held.paymentId);
    // Online payment is off in this process (webpayClient() is null), so the retry button is not offered here.
    expect(page.body).toMatchObject({
      state: "aborted",
      slotReleased: true,
      isDeposit: true,
      canRetry: false,
    });
  });

  it("is rate-limited per client address", async () => {
    const ip = randomIp();
    let last = 0;
    for (let i = 0; i < 31; i++) {
      last = (await webpayReturnResponse(returnPost({ TBK_TOKEN: "nada" }, ip), webpay)).status;
    }
    expect(last).toBe(429);
  });
});

describe("another patient's payment", () => {
  it("the result and checkout pages answer 404, the same as an unknown id", async () => {
    const held = await heldBooking(owner);
    for (const id of [held.paymentId, "00000000-0000-4000-8000-000000000000", "no-es-uuid"]) {
      const result = await resultPage(stranger, id);
      expect(result.status).toBe(404);
      const checkout = await checkoutPage(stranger, id);
      expect(checkout.status).toBe(404);
      expect(checkout.body).not.toHaveProperty("token");
    }
  });

  it("'Pagar abono' on another patient's appointment is refused and starts no attempt", async () => {
    const held = await heldBooking(owner);
    const attemptsBefore = (await (await getDb()).select().from(payments)).length;
    const response = await settle<AppointmentActionResult>(() =>
      appointmentsAction(
        routeArgs(
          requestAs(stranger.cookie, "/paciente/citas", {
            method: "POST",
            body: new URLSearchParams({ intent: "pay", appointmentId: held.appointmentId }),
          }),
        ),
      ),
    );
    expect(response.status).toBe(404);
    expect(response.location).toBeNull();
    expect((await (await getDb()).select().from(payments)).length).toBe(attemptsBefore);
  });
});
