import { data } from "react-router";
import type { Route } from "./+types/payments";
import { getDb } from "~/db/client.server";
import { PatientPayments } from "~/features/payments/components/patient-payments-page";
import type { PatientPaymentsPage } from "~/features/payments/patient-payments-dto";
import { checkoutRedirect } from "~/features/payments/payment-paths";
import { payChargeActionSchema } from "~/features/payments/payment-schema";
import { patientPaymentsPage, payOwnCharge } from "~/features/payments/patient-payments-service.server";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import {
  actionFailure,
  formLevelMessage,
  INVALID_REQUEST_MESSAGE,
  type AnyActionResult,
} from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { requireUser } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Mis Pagos | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs): Promise<PatientPaymentsPage> {
  const user = await requireUser(args);
  return patientPaymentsPage(await getDb(), user.id, webpayClient() !== null);
}

/** 'Pagar': a Webpay attempt on one of the session's own open charges, then off to Webpay's form. */
export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const form = payChargeActionSchema.safeParse(await readForm(args.request));
  if (!form.success) return data(actionFailure("VALIDATION", INVALID_REQUEST_MESSAGE), { status: 400 });
  try {
    const paymentId = await payOwnCharge(await getDb(), user.id, form.data.chargeId, webpayClient());
    return checkoutRedirect(paymentId);
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function PaymentsRoute({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <PatientPayments page={loaderData} error={formLevelMessage(actionData as AnyActionResult | undefined)} />
  );
}
