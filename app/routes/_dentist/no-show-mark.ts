import type { Route } from "./+types/no-show-mark";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { handleNoShowPost } from "~/features/no-shows/no-show-route.server";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

/**
 * POST /dentista/inasistencias: 'No asistió' and 'Deshacer' from the dentist's agenda (their own appointments only,
 * checked by the service: another dentist's is a 404) or an admin's day view (ADR 042).
 */
export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ["dentista", ...ADMIN_ROLES]);
  const form = await readForm(args.request);
  const backTo = user.roles.includes("dentista") ? "/dentista" : "/admin/agenda";
  return handleNoShowPost(await getDb(), user, args.request, form, {
    paymentsOn: webpayClient() !== null,
    backTo,
  });
}
