import { Outlet } from "react-router";
import type { Route } from "./+types/admin-layout";
import { AdminShell } from "~/components/admin-shell";
import { ADMIN_ROLES } from "~/domain/roles";
import { requireRole } from "~/lib/guards.server";

/**
 * Every /admin page inside this layout needs an admin role; the children check again in their own loaders and
 * actions. /admin/pagos lives outside it: an asesor may read it (its own guard, ADR 036).
 */
export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, ADMIN_ROLES);
  return null;
}

export default function AdminLayout() {
  return (
    <AdminShell>
      <Outlet />
    </AdminShell>
  );
}
