import type { Route } from "./+types/callback-requests";
import { STAFF_ROLES } from "~/domain/roles";
import {
  callbackRequestsAction,
  callbackRequestsLoader,
} from "~/features/admin/callback-requests-route.server";
import { CallbackRequestsPage } from "~/features/admin/components/callback-requests-page";

export const meta: Route.MetaFunction = () => [
  { title: "Solicitudes de llamada | Río Clínica" },
  { name: "robots", content: "noindex" },
];

// The asesores' view of the call-back requests (issue 23): the same list and status changes as /admin/solicitudes.
export const loader = (args: Route.LoaderArgs) => callbackRequestsLoader(args, STAFF_ROLES);

export const action = (args: Route.ActionArgs) => callbackRequestsAction(args, STAFF_ROLES);

export default function StaffCallbackRequests({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <CallbackRequestsPage loaderData={loaderData} actionData={actionData} basePath="/funnel/solicitudes" />
  );
}
