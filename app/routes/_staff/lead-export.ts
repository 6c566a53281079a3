import type { Route } from "./+types/lead-export";
import { getDb } from "~/db/client.server";
import { STAFF_ROLES } from "~/domain/roles";
import { exportLeads } from "~/features/crm/lead-list-service.server";
import { parseLeadFilters } from "~/features/crm/lead-panel-schema";
import { clientIp } from "~/lib/client-ip.server";
import { AppError } from "~/lib/base/errors";
import { requireRole } from "~/lib/guards.server";

/**
 * GET /funnel/leads.csv?…the panel's parameters… — every lead of that view as CSV (ADR 027), staff only (leads are
 * personal data). Invalid parameters fall back to their defaults, as on the panel.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireRole(args, STAFF_ROLES);
  const { filters } = parseLeadFilters(new URL(args.request.url).searchParams);
  let file;
  try {
    file = await exportLeads(await getDb(), {
      filters,
      viewer: { userId: user.id },
      actor: { id: user.id, roles: user.roles, ip: clientIp(args.request) },
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "RATE_LIMITED") {
      return new Response(error.message, {
        status: 429,
        headers: {
          "content-type": "text/plain; charset=utf-8",
          "retry-after": String(error.retryAfter ?? 60),
          "cache-control": "no-store",
        },
      });
    }
    throw error;
  }
  return new Response(file.body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
