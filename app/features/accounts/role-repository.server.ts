import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { roles, userRoles } from "~/db/schema";
import type { RoleName } from "~/domain/roles";

/** Active role names of a user, lower-case (spec 000 §6: is_active rows joined with roles.name). */
export async function activeRoleNames(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .select({ name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userRoles.userId, userId), eq(userRoles.isActive, true)));
  return rows.map((row) => row.name.toLowerCase());
}

/** Grants (or re-activates) a role; idempotent. */
export async function grantRole(
  db: Pick<Database, "insert" | "select">,
  userId: string,
  role: RoleName,
): Promise<void> {
  const [roleRow] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, role));
  if (!roleRow) throw new Error(`unknown role ${role}`);
  await db
    .insert(userRoles)
    .values({ userId, roleId: roleRow.id, isActive: true })
    .onConflictDoUpdate({
      target: [userRoles.userId, userRoles.roleId],
      set: { isActive: true, updatedAt: new Date() },
    });
}

/** Revokes a role (the row stays, inactive, for the record). */
export async function revokeRole(db: Database, userId: string, role: RoleName): Promise<void> {
  const roleIds = db.select({ id: roles.id }).from(roles).where(eq(roles.name, role));
  await db
    .update(userRoles)
    .set({ isActive: false, updatedAt: new Date() })
    .where(and(eq(userRoles.userId, userId), inArray(userRoles.roleId, roleIds)));
}
