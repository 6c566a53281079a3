import { hasAdminRole } from "~/domain/roles";
import type { SessionUser } from "~/lib/auth/session.server";
import { clientIp } from "~/lib/client-ip.server";
import { AppError } from "~/lib/base/errors";

/** Who is making an admin change, as recorded in the audit log. */
export interface AdminActor {
  id: string;
  roles: readonly string[];
  ip: string;
}

export function adminActor(user: SessionUser, request: Request): AdminActor {
  return { id: user.id, roles: user.roles, ip: clientIp(request) };
}

export function isSuperAdmin(actor: Pick<AdminActor, "roles">): boolean {
  return actor.roles.includes("super_admin");
}

/** Defence in depth: the route already called requireRole, but a service must never trust its caller for that. */
export function assertAdmin(actor: AdminActor): void {
  if (!hasAdminRole(actor.roles)) {
    throw new AppError("FORBIDDEN", "No tienes permiso para hacer este cambio.");
  }
}
