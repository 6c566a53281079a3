import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/payment-result";
import { getDb } from "~/db/client.server";
import { payCharge } from "~/features/payments/booking-payment-service.server";
import { PaymentResultPage } from "~/features/payments/components/payment-pages";
import { patientPayment, paymentResultView } from "~/features/payments/patient-payment-pages.server";
import { checkoutRedirect } from "~/features/payments/payment-paths";
import { retryPaymentActionSchema } from "~/features/payments/payment-schema";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { actionFailure, INVALID_REQUEST_MESSAGE } from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { requireUser } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Resultado del pago | Río Clínica" },
  { name: "robots", content: "noindex, nofollow" },
];

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

const NOT_FOUND = "No encontramos ese pago.";

/** The session's own attempt, else the same 404 for another patient's id and an unknown one (ADR 036). */
async function ownPayment(args: Route.LoaderArgs | Route.ActionArgs) {
  const user = await requireUser(args);
  const id = z.uuid().safeParse(args.params.paymentId);
  const db = await getDb();
  const payment = id.success ? await patientPayment(db, user.id, id.data) : null;
  if (!payment) throw data({ message: NOT_FOUND }, { status: 404 });
  return { user, db, payment };
}

export async function loader(args: Route.LoaderArgs) {
  const { payment } = await ownPayment(args);
  return paymentResultView(payment, webpayClient() !== null);
}

/** 'Reintentar pago': a new attempt on the same charge (its slot taken back first if still free). */
export async function action(args: Route.ActionArgs) {
  const { user, db, payment } = await ownPayment(args);
  if (!retryPaymentActionSchema.safeParse(await readForm(args.request)).success) {
    return data(actionFailure("VALIDATION", INVALID_REQUEST_MESSAGE), { status: 400 });
  }
  try {
    const paymentId = await payCharge(db, user.id, payment.chargeId, webpayClient());
    return checkoutRedirect(paymentId);
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function PaymentResultRoute({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData && !actionData.ok ? actionData.message : undefined;
  return <PaymentResultPage view={loaderData} error={error} />;
}
