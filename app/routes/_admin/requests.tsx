import { data } from "react-router";
import type { Route } from "./+types/requests";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { adminActor } from "~/features/admin/admin-actor.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { CallbackRequestsPage } from "~/features/admin/components/callback-requests-page";
import { changeRequestStatus, listRequests } from "~/features/admin/request-admin-service.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Solicitudes | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  return listRequests(await getDb(), adminActor(user, args.request), new URL(args.request.url).searchParams);
}

export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const form = await readForm(args.request);
  try {
    const { message } = await changeRequestStatus(await getDb(), adminActor(user, args.request), form);
    return data<ActionResult>(actionSuccess(undefined, message));
  } catch (error) {
    // A row that is gone is the page's 404; the other refusals show above the table.
    return appErrorResult(error, { notFound: "throw" });
  }
}

export default function AdminRequests({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <CallbackRequestsPage loaderData={loaderData} actionData={actionData} basePath="/admin/solicitudes" />
  );
}
