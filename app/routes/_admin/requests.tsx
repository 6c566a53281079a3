import type { Route } from "./+types/requests";
import { ADMIN_ROLES } from "~/domain/roles";
import {
  callbackRequestsAction,
  callbackRequestsLoader,
} from "~/features/admin/callback-requests-route.server";
import { CallbackRequestsPage } from "~/features/admin/components/callback-requests-page";

export const meta: Route.MetaFunction = () => [
  { title: "Solicitudes | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export const loader = (args: Route.LoaderArgs) => callbackRequestsLoader(args, ADMIN_ROLES);

export const action = (args: Route.ActionArgs) => callbackRequestsAction(args, ADMIN_ROLES);

export default function AdminRequests({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <CallbackRequestsPage loaderData={loaderData} actionData={actionData} basePath="/admin/solicitudes" />
  );
}
