import { Outlet } from "react-router";
import type { Route } from "./+types/admin-layout";
import { ADMIN_ROLES } from "~/domain/roles";
import { requireRole } from "~/lib/guards.server";

export async function loader(args: Route.LoaderArgs) {
  await requireRole(args, ADMIN_ROLES);
  return null;
}

export default function AdminLayout() {
  return <Outlet />;
}
