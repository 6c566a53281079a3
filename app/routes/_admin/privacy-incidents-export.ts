import type { Route } from "./+types/privacy-incidents-export";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { incidentRegisterExport } from "~/features/privacy/incident-service.server";
import { clientIp } from "~/lib/client-ip.server";
import { requireRole } from "~/lib/guards.server";

/** GET /admin/privacidad/incidentes.csv — the breach register for the Agency (ADR 038), admins only, audited. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, ADMIN_ROLES);
  const file = await incidentRegisterExport(await getDb(), {
    id: user.id,
    roles: user.roles,
    ip: clientIp(args.request),
  });
  return new Response(file.body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
