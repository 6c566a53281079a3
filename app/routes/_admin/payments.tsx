import { data } from "react-router";
import type { Route } from "./+types/payments";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES, STAFF_ROLES } from "~/domain/roles";
import { adminActor } from "~/features/admin/admin-actor.server";
import { AdminPaymentsPage } from "~/features/admin/components/payments-page";
import { paymentActionSchema } from "~/features/admin/payment-admin-schemas";
import { paymentAdminAction, paymentsPage } from "~/features/admin/payment-admin-service.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Pagos | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

/** Staff read (an asesor answers patients' questions about a payment); the admin layout is not in the way (ADR 036). */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  return paymentsPage(await getDb(), adminActor(user, args.request), new URL(args.request.url).searchParams);
}

/** Every change is an admin's: refunds, forgiven fees, balances recorded at Dentalink, deposit rules. */
export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const parsed = paymentActionSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  try {
    const message = await paymentAdminAction(await getDb(), adminActor(user, args.request), parsed.data);
    return data<ActionResult>(actionSuccess(undefined, message));
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  return <AdminPaymentsPage page={loaderData} actionData={actionData} />;
}
