import type { Route } from "./+types/payments-export";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import { adminActor } from "~/features/admin/admin-actor.server";
import { paymentsCsv } from "~/features/admin/payment-admin-service.server";
import { requireRole } from "~/lib/guards.server";

/**
 * GET /admin/pagos.csv?…the page's filters… — the attempts of that view as CSV (the lead export's dialect, ADR 027),
 * staff only (asesor included, read only: ADR 036). Invalid parameters fall back to their defaults, as on the page.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const file = await paymentsCsv(
    await getDb(),
    adminActor(user, args.request),
    new URL(args.request.url).searchParams,
  );
  return new Response(file.body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
