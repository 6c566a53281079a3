import { data } from "react-router";
import { getDb } from "~/db/client.server";
import type { RoleName } from "~/domain/roles";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult } from "~/lib/base/errors.server";
import { requireRole, type GuardArgs } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";
import { adminActor } from "./admin-actor.server";
import { changeRequestStatus, listRequests } from "./request-admin-service.server";

/**
 * The call-back request list's loader and action, shared by /admin/solicitudes (admins) and /funnel/solicitudes
 * (asesores, issue 23): each route passes the roles it admits.
 */
export async function callbackRequestsLoader(
  args: GuardArgs & { request: Request },
  roles: readonly RoleName[],
) {
  const user = await requireRole(args, roles);
  return listRequests(await getDb(), adminActor(user, args.request), new URL(args.request.url).searchParams);
}

export async function callbackRequestsAction(
  args: GuardArgs & { request: Request },
  roles: readonly RoleName[],
) {
  const user = await requireRole(args, roles);
  const form = await readForm(args.request);
  try {
    const { message } = await changeRequestStatus(await getDb(), adminActor(user, args.request), form);
    return data<ActionResult>(actionSuccess(undefined, message));
  } catch (error) {
    // A row that is gone is the page's 404; the other refusals show above the table.
    return appErrorResult(error, { notFound: "throw" });
  }
}
