import { dentistDisplayName, isProfessionalTitle, type ProfessionalTitle } from "~/domain/dentist-name";
import { activeRoleNames, activeRolesByUser, grantRole, revokeRole } from "~/db/accounts.server";
import type { Database } from "~/db/client.server";
import { formatChileanPhone } from "~/domain/format";
import { ADMIN_ROLES, roleNames, type RoleName } from "~/domain/roles";
import { logger } from "~/lib/base/logger.server";
import { assertAdmin, isSuperAdmin, type AdminActor } from "./admin-actor.server";
import { AppError } from "~/lib/base/errors";
import { dateLabel, type DateLabel } from "./admin-format";
import { roleLabel, USERS_PAGE_SIZE } from "./admin-options";
import { userActionSchema, userSearchParamsSchema } from "./admin-schemas";
import { recordAudit } from "./audit-repository.server";
import { listAuditEntries, type AuditEntryDto } from "./audit-service.server";
import {
  countActiveSessions,
  deleteSessionsOf,
  findUserDetail,
  lockUser,
  searchUsers,
  setDeactivatedAt,
  setProfessionalTitle,
} from "./user-admin-repository.server";

export interface RoleDto {
  name: string;
  label: string;
}

export interface UserRowDto {
  id: string;
  name: string;
  email: string;
  roles: RoleDto[];
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  active: boolean;
  created: DateLabel;
}

export interface UsersPageDto {
  query: string;
  page: number;
  pageCount: number;
  total: number;
  users: UserRowDto[];
}

const USER_NOT_FOUND = "No encontramos ese usuario.";

function fullName(user: { firstName: string; lastName: string }): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

function roleDtos(names: readonly string[]): RoleDto[] {
  return names.map((name) => ({ name, label: roleLabel(name) }));
}

/** `?q=&pagina=` → one page of users (50 per page) with their active roles. */
export async function listUsersPage(
  db: Database,
  actor: AdminActor,
  params: URLSearchParams,
): Promise<UsersPageDto> {
  assertAdmin(actor);
  const { q, pagina } = userSearchParamsSchema.parse({
    q: params.get("q") ?? undefined,
    pagina: params.get("pagina") ?? undefined,
  });
  let page = pagina;
  let result = await searchUsers(db, {
    query: q,
    limit: USERS_PAGE_SIZE,
    offset: (page - 1) * USERS_PAGE_SIZE,
  });
  const pageCount = Math.max(1, Math.ceil(result.total / USERS_PAGE_SIZE));
  if (page > pageCount) {
    // A page past the end (an old link after a search narrowed) shows the last page instead of an empty table.
    page = pageCount;
    result = await searchUsers(db, {
      query: q,
      limit: USERS_PAGE_SIZE,
      offset: (page - 1) * USERS_PAGE_SIZE,
    });
  }
  const rolesByUser = await activeRolesByUser(
    db,
    result.rows.map((row) => row.id),
  );
  return {
    query: q,
    page,
    pageCount,
    total: result.total,
    users: result.rows.map((row) => ({
      id: row.id,
      name: fullName(row),
      email: row.email,
      roles: roleDtos(rolesByUser.get(row.id) ?? []),
      emailVerified: row.emailVerified,
      twoFactorEnabled: row.twoFactorEnabled,
      active: row.deactivatedAt === null,
      created: dateLabel(row.createdAt),
    })),
  };
}

export interface UserDetailDto {
  user: {
    id: string;
    firstName: string;
    lastName: string;
    name: string;
    email: string;
    phone: string | null;
    rut: string | null;
    /** The dentist's title ("dr", "dra") or "" for none; only shown for a dentist. */
    professionalTitle: ProfessionalTitle | "";
    /** How the portal names them as a dentist (`dentistDisplayName`). */
    dentistName: string;
    emailVerified: boolean;
    twoFactorEnabled: boolean;
    active: boolean;
    deactivated: DateLabel | null;
    created: DateLabel;
    updated: DateLabel;
    activeSessions: number;
  };
  roles: RoleDto[];
  /** The five roles for the grant select; the ones this administrator may not grant are marked. */
  grantable: Array<RoleDto & { active: boolean; allowed: boolean }>;
  /** Revoke buttons the server would refuse are not offered (the server still checks). */
  revocable: string[];
  isSelf: boolean;
  canChangeStatus: boolean;
  history: AuditEntryDto[];
}

function mayTouchRole(actor: AdminActor, role: string): boolean {
  return role !== "super_admin" || isSuperAdmin(actor);
}

function isAdminRole(role: string): boolean {
  return (ADMIN_ROLES as readonly string[]).includes(role);
}

/** The detail page of one user, or NOT_FOUND. */
export async function getUserDetail(db: Database, actor: AdminActor, userId: string): Promise<UserDetailDto> {
  assertAdmin(actor);
  const row = await findUserDetail(db, userId);
  if (!row) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
  const active = await activeRoleNames(db, userId);
  const isSelf = actor.id === userId;
  const targetIsSuper = active.includes("super_admin");
  return {
    user: {
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      name: fullName(row),
      email: row.email,
      phone: row.phone ? formatChileanPhone(row.phone) : null,
      rut: row.rut,
      professionalTitle: isProfessionalTitle(row.professionalTitle) ? row.professionalTitle : "",
      dentistName: dentistDisplayName({
        firstName: row.firstName,
        lastName: row.lastName,
        title: row.professionalTitle,
      }),
      emailVerified: row.emailVerified,
      twoFactorEnabled: row.twoFactorEnabled,
      active: row.deactivatedAt === null,
      deactivated: row.deactivatedAt ? dateLabel(row.deactivatedAt) : null,
      created: dateLabel(row.createdAt),
      updated: dateLabel(row.updatedAt),
      activeSessions: await countActiveSessions(db, userId),
    },
    roles: roleDtos(active),
    grantable: roleNames.map((name) => ({
      name,
      label: roleLabel(name),
      active: active.includes(name),
      allowed: mayTouchRole(actor, name),
    })),
    revocable: active.filter((role) => mayTouchRole(actor, role) && !(isSelf && isAdminRole(role))),
    isSelf,
    canChangeStatus: !isSelf && (!targetIsSuper || isSuperAdmin(actor)),
    history: await listAuditEntries(db, { limit: 20, targetUserId: userId }),
  };
}

/**
 * Grants or revokes a role, deactivates or reactivates an account. Authorize → validate → change and audit in one
 * transaction. Refusals are AppErrors and change nothing.
 */
export async function applyUserAction(
  db: Database,
  actor: AdminActor,
  userId: string,
  form: Record<string, string>,
): Promise<{ message: string }> {
  assertAdmin(actor);
  const parsed = userActionSchema.safeParse(form);
  if (!parsed.success) {
    throw new AppError("VALIDATION", parsed.error.issues[0]?.message ?? "La solicitud no es válida.");
  }
  const action = parsed.data;
  const isSelf = actor.id === userId;

  return db.transaction(async (tx) => {
    const target = await lockUser(tx, userId);
    if (!target) throw new AppError("NOT_FOUND", USER_NOT_FOUND);
    const targetName = fullName(target) || target.email;
    const targetRoles = await activeRoleNames(tx, userId);
    const audit = (name: string, details: Record<string, unknown>) =>
      recordAudit(tx, {
        actorId: actor.id,
        actorRoles: actor.roles,
        action: name,
        targetUserId: userId,
        details,
        ip: actor.ip,
      });

    switch (action.intent) {
      case "grant":
      case "revoke": {
        const role: RoleName = action.role;
        if (!mayTouchRole(actor, role)) {
          throw new AppError(
            "FORBIDDEN",
            "Solo un super administrador puede otorgar o revocar el rol Super administrador.",
          );
        }
        const label = roleLabel(role);
        if (action.intent === "grant") {
          if (targetRoles.includes(role))
            throw new AppError("CONFLICT", `${targetName} ya tiene el rol ${label}.`);
          await grantRole(tx, userId, role);
          await audit("role.grant", { role });
          logger.info({ actorId: actor.id, targetUserId: userId, role }, "admin granted a role");
          return { message: `Se otorgó el rol ${label} a ${targetName}.` };
        }
        if (isSelf && isAdminRole(role)) {
          throw new AppError(
            "FORBIDDEN",
            "No puedes revocar tu propio rol de administración: perderías el acceso a esta área. Pídeselo a otro administrador.",
          );
        }
        if (!targetRoles.includes(role)) {
          throw new AppError("CONFLICT", `${targetName} no tiene el rol ${label}.`);
        }
        await revokeRole(tx, userId, role);
        await audit("role.revoke", { role });
        logger.info({ actorId: actor.id, targetUserId: userId, role }, "admin revoked a role");
        return { message: `Se revocó el rol ${label} a ${targetName}.` };
      }
      case "title": {
        if (!targetRoles.includes("dentista")) {
          throw new AppError(
            "CONFLICT",
            `${targetName} no tiene el rol Dentista: el título es solo para dentistas.`,
          );
        }
        const to = action.title === "" ? null : action.title;
        const from = isProfessionalTitle(target.professionalTitle) ? target.professionalTitle : null;
        if (from === to) return { message: `Sin cambios: ${targetName} ya tenía ese título.` };
        await setProfessionalTitle(tx, userId, to);
        await audit("user.title", { from, to });
        logger.info({ actorId: actor.id, targetUserId: userId }, "admin set a dentist's title");
        const named = dentistDisplayName({
          firstName: target.firstName,
          lastName: target.lastName,
          title: to,
        });
        return { message: `Título guardado. El portal lo nombra «${named || target.email}».` };
      }
      case "deactivate":
      case "reactivate": {
        if (isSelf) {
          throw new AppError(
            "FORBIDDEN",
            action.intent === "deactivate"
              ? "No puedes desactivar tu propia cuenta."
              : "No puedes cambiar el estado de tu propia cuenta.",
          );
        }
        if (targetRoles.includes("super_admin") && !isSuperAdmin(actor)) {
          throw new AppError(
            "FORBIDDEN",
            "Solo un super administrador puede desactivar o reactivar la cuenta de un super administrador.",
          );
        }
        if (action.intent === "deactivate") {
          if (target.deactivatedAt)
            throw new AppError("CONFLICT", `La cuenta de ${targetName} ya está desactivada.`);
          await setDeactivatedAt(tx, userId, new Date());
          const sessionsRevoked = await deleteSessionsOf(tx, userId);
          await audit("user.deactivate", { sessionsRevoked });
          logger.info(
            { actorId: actor.id, targetUserId: userId, sessionsRevoked },
            "admin deactivated a user",
          );
          const closed =
            sessionsRevoked === 0
              ? "No tenía sesiones abiertas."
              : sessionsRevoked === 1
                ? "Se cerró 1 sesión."
                : `Se cerraron ${sessionsRevoked} sesiones.`;
          return { message: `Cuenta de ${targetName} desactivada. ${closed}` };
        }
        if (!target.deactivatedAt)
          throw new AppError("CONFLICT", `La cuenta de ${targetName} ya está activa.`);
        await setDeactivatedAt(tx, userId, null);
        await audit("user.reactivate", {});
        logger.info({ actorId: actor.id, targetUserId: userId }, "admin reactivated a user");
        return { message: `Cuenta de ${targetName} reactivada. Ya puede iniciar sesión.` };
      }
    }
  });
}
