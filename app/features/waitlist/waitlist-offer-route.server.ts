import { data } from "react-router";
import { getDb } from "~/db/client.server";
import { checkoutRedirect } from "~/features/payments/payment-paths";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { sessionUser } from "~/lib/auth/session.server";
import type { GuardArgs } from "~/lib/guards.server";
import { claimOffer, offerPage, type OfferPage } from "./waitlist-claim.server";

/** Never stored by a browser or proxy (it changes when claimed); the token is not sent on as a Referer. */
export const offerHeaders = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

function respond(page: OfferPage) {
  return data(page.view, { status: page.status, headers: offerHeaders });
}

async function contextOf(args: GuardArgs) {
  const user = await sessionUser(args);
  return {
    sessionUserId: user?.id ?? null,
    path: new URL(args.request.url).pathname,
    webpay: webpayClient(),
  };
}

/** GET /lista-de-espera/oferta/:token: shows the slot, changes nothing. */
export async function waitlistOfferLoader(args: GuardArgs, token: string | undefined) {
  return respond(await offerPage(await getDb(), token ?? "", await contextOf(args)));
}

/** POST: claims it; with a deposit to pay, on to Webpay's checkout (ADR 036). */
export async function waitlistOfferAction(args: GuardArgs, token: string | undefined) {
  const outcome = await claimOffer(await getDb(), token ?? "", await contextOf(args));
  if (outcome.paymentId) throw checkoutRedirect(outcome.paymentId);
  return respond(outcome);
}
