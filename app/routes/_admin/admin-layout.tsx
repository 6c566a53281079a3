import { Outlet } from "react-router";
import type { Route } from "./+types/admin-layout";
import { AdminShell } from "~/components/admin-shell";
import { getDb } from "~/db/client.server";
import { ADMIN_ROLES } from "~/domain/roles";
import { privacyQueueCounts } from "~/features/privacy/request-queries.server";
import { requireRole } from "~/lib/guards.server";

/**
 * Every /admin page inside this layout needs an admin role; the children check again in their own loaders and
 * actions. /admin/pagos lives outside it: an asesor may read it (its own guard, ADR 036).
 */
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, ADMIN_ROLES);
  // The privacy queue's clock (overdue, due this week) on every admin page, the landing included.
  return { privacyCounts: await privacyQueueCounts(await getDb()) };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { privacyCounts } = loaderData;
  return (
    <AdminShell privacyCounts={privacyCounts}>
      <Outlet />
    </AdminShell>
  );
}
