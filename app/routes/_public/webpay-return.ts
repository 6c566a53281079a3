import type { Route } from "./+types/webpay-return";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { webpayReturnResponse } from "~/features/payments/webpay-return-route.server";

// Webpay's return_url (ADR 036): a resource route, by GET or POST, keyed only by the token we issued.
export async function loader({ request }: Route.LoaderArgs) {
  return webpayReturnResponse(request, webpayClient());
}

export async function action({ request }: Route.ActionArgs) {
  return webpayReturnResponse(request, webpayClient());
}
