import type { Route } from "./+types/appointment-callback-link";
import {
  appointmentLinkAction,
  appointmentLinkHeaders,
  appointmentLinkLoader,
} from "~/features/reminders/appointment-link-route.server";
import { AppointmentLinkPage } from "~/features/reminders/components/appointment-link-page";

// A reminder's single-use "Necesito hablar con alguien" link (ADR 039); public: the token is the only credential.
export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex, nofollow" }];

export const headers: Route.HeadersFunction = () => appointmentLinkHeaders;

export async function loader({ params }: Route.LoaderArgs) {
  return appointmentLinkLoader("callback", params.token);
}

export async function action({ params, request }: Route.ActionArgs) {
  return appointmentLinkAction("callback", params.token, request);
}

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  return <AppointmentLinkPage view={actionData ?? loaderData} />;
}
