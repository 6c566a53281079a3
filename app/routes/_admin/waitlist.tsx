import { data } from "react-router";
import type { Route } from "./+types/waitlist";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { AdminWaitlistPage } from "~/features/waitlist/components/admin-waitlist-page";
import { manualOfferSchema } from "~/features/waitlist/waitlist-schema";
import { adminWaitlistPage, offerSlotByHand } from "~/features/waitlist/waitlist-service.server";
import { actionSuccess, type ActionResult } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { clientIp } from "~/lib/client-ip.server";
import { requireRole } from "~/lib/guards.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Lista de espera | Administración | Río Clínica" },
  { name: "robots", content: "noindex" },
];

export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, ADMIN_ROLES);
  return adminWaitlistPage(await getDb());
}

/** 'Ofrecer esta hora' (ADR 040): audited in the service's transaction. */
export async function action(args: Route.ActionArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const parsed = manualOfferSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  try {
    await offerSlotByHand(
      await getDb(),
      { id: user.id, roles: user.roles, ip: clientIp(args.request) },
      { ...parsed.data, entryId: parsed.data.entryId || null },
    );
    return data<ActionResult>(
      actionSuccess(
        undefined,
        parsed.data.entryId
          ? "Listo: le enviamos la oferta a ese paciente."
          : "Listo: la hora se ofrece ahora a los pacientes en espera que calcen.",
      ),
    );
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function AdminWaitlistRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <AdminWaitlistPage data={loaderData} result={actionData} />;
}
