import type { Route } from "./+types/waitlist-offer";
import { WaitlistOfferPage } from "~/features/waitlist/components/waitlist-offer-page";
import {
  offerHeaders,
  waitlistOfferAction,
  waitlistOfferLoader,
} from "~/features/waitlist/waitlist-offer-route.server";

// A waitlist offer's single-use link (ADR 040); public: the token proves the recipient.
export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex, nofollow" }];

export const headers: Route.HeadersFunction = () => offerHeaders;

export async function loader(args: Route.LoaderArgs) {
  return waitlistOfferLoader(args, args.params.token);
}

export async function action(args: Route.ActionArgs) {
  return waitlistOfferAction(args, args.params.token);
}

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  return <WaitlistOfferPage view={actionData ?? loaderData} />;
}
