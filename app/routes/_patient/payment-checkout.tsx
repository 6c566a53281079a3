import { data, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/payment-checkout";
import { getDb } from "~/db/client.server";
import { CheckoutPage } from "~/features/payments/components/payment-pages";
import { checkoutView, patientPayment } from "~/features/payments/patient-payment-pages.server";
import { paymentResultPath } from "~/features/payments/payment-paths";
import { requireUser } from "~/lib/guards.server";

export const meta: Route.MetaFunction = () => [
  { title: "Pagar con Webpay | Río Clínica" },
  { name: "robots", content: "noindex, nofollow" },
];

// The page holds Webpay's token: never cached, never sent on as a Referer.
export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
});

const NOT_FOUND = "No encontramos ese pago.";

/** The patient's own attempt only: another patient's id answers the same 404 as an unknown one (ADR 036). */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const id = z.uuid().safeParse(args.params.paymentId);
  if (!id.success) throw data({ message: NOT_FOUND }, { status: 404 });
  const payment = await patientPayment(await getDb(), user.id, id.data);
  if (!payment) throw data({ message: NOT_FOUND }, { status: 404 });
  const view = checkoutView(payment);
  // Already settled (or never reached Webpay): its outcome is on the result page.
  if (!view) throw redirect(paymentResultPath(payment.id));
  return view;
}

export default function PaymentCheckoutRoute({ loaderData }: Route.ComponentProps) {
  return <CheckoutPage view={loaderData} />;
}
