import type { Route } from "./+types/appointment-cancel-link";
import {
  appointmentLinkAction,
  appointmentLinkHeaders,
  appointmentLinkLoader,
} from "~/features/reminders/appointment-link-route.server";
import { AppointmentLinkPage } from "~/features/reminders/components/appointment-link-page";

// A reminder's single-use link (ADR 018); public: the token is the only credential.
export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex, nofollow" }];

export const headers: Route.HeadersFunction = () => appointmentLinkHeaders;

export async function loader({ params }: Route.LoaderArgs) {
  return appointmentLinkLoader("cancel", params.token);
}

export async function action({ params, request }: Route.ActionArgs) {
  return appointmentLinkAction("cancel", params.token, request);
}

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  return <AppointmentLinkPage view={actionData ?? loaderData} />;
}
