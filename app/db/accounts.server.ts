import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { RoleName } from "~/domain/roles";
import type { Database } from "./client.server";
import { accounts, roles, userRoles, users } from "./schema";

/**
 * Roles are read by the session lookup (lib), by sign-in and by the admin area, so they live here rather than in
 * a feature: every layer that needs them may import db/.
 */

/** The account columns the session and the admin list both show. */
export const accountColumns = {
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  emailVerified: users.emailVerified,
  twoFactorEnabled: users.twoFactorEnabled,
  deactivatedAt: users.deactivatedAt,
};

/** The one definition of "has the role": an active user_roles row, joined with its role's name. */
export const grantedRole = eq(roles.id, userRoles.roleId);
export const activeGrantOf = (ofUsers: SQL) => and(ofUsers, eq(userRoles.isActive, true));

/**
 * The user's active role names, lower-case, as a json array correlated on `users.id`: a subquery rather than a
 * join + group by, so a user with no role still yields their row; json_agg (not array_agg) because both drivers
 * parse json, while text[] parsing differs.
 */
export function activeRoleNamesJson(db: Pick<Database, "select">) {
  const names = db
    .select({
      names: sql<string[]>`coalesce(json_agg(lower(${roles.name}) order by ${roles.name}), '[]'::json)`.as(
        "names",
      ),
    })
    .from(userRoles)
    .innerJoin(roles, grantedRole)
    .where(activeGrantOf(eq(userRoles.userId, users.id)));
  return sql<string[]>`(${names})`;
}

/** Active role names of a user, lower-case. */
export async function activeRoleNames(db: Pick<Database, "select">, userId: string): Promise<string[]> {
  const rows = await db
    .select({ name: roles.name })
    .from(userRoles)
    .innerJoin(roles, grantedRole)
    .where(activeGrantOf(eq(userRoles.userId, userId)));
  return rows.map((row) => row.name.toLowerCase());
}

/** Active role names per user id, lower-case. */
export async function activeRolesByUser(
  db: Pick<Database, "select">,
  userIds: readonly string[],
): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (userIds.length === 0) return result;
  const rows = await db
    .select({ userId: userRoles.userId, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, grantedRole)
    .where(activeGrantOf(inArray(userRoles.userId, [...userIds])))
    .orderBy(asc(roles.id));
  for (const row of rows) {
    const list = result.get(row.userId) ?? [];
    list.push(row.name.toLowerCase());
    result.set(row.userId, list);
  }
  return result;
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

/** Whether the account can sign in with a password (a Google-only account cannot). */
export async function hasPassword(db: Pick<Database, "select">, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        eq(accounts.userId, userId),
        eq(accounts.providerId, "credential"),
        sql`${accounts.password} is not null`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
