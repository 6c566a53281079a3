import { and, asc, eq, exists, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { roles, staffAvailability, userRoles, users } from "~/db/schema";

type Tx = Pick<Database, "select" | "insert" | "update">;

/** Active asesores: the asesor role granted and active, the account not deactivated. */
function activeAsesor(userIdColumn: typeof users.id | typeof staffAvailability.userId) {
  return and(
    exists(
      sql`(select 1 from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId}
        where ${userRoles.userId} = ${userIdColumn} and ${userRoles.isActive} and ${roles.name} = 'asesor')`,
    ),
    exists(
      sql`(select 1 from ${users} where ${users.id} = ${userIdColumn} and ${users.deactivatedAt} is null)`,
    ),
  );
}

/** Every active asesor with their away flag, by name (the reassign select, the availability list). */
export async function listAsesores(db: Pick<Database, "select">) {
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      away: sql<boolean>`coalesce(${staffAvailability.away}, false)`,
    })
    .from(users)
    .leftJoin(staffAvailability, eq(staffAvailability.userId, users.id))
    .where(activeAsesor(users.id))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
}

export async function isActiveAsesor(db: Pick<Database, "select">, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), activeAsesor(users.id)));
  return Boolean(row);
}

/**
 * The asesor whose turn it is, inside the caller's transaction (the one inserting the lead), or null when nobody is
 * available. Round-robin as "least recently given a lead": an asesor never assigned goes first, ties by id. The
 * chosen row is locked (`FOR UPDATE SKIP LOCKED`), so two leads created at once go to two asesores; when every
 * candidate is locked by other transactions, it waits for the first (still fair: that asesor's turn moves on).
 */
export async function takeNextAssignee(tx: Tx): Promise<string | null> {
  // Asesores never considered get their row now (a concurrent insert of the same row waits, then does nothing).
  await tx
    .insert(staffAvailability)
    .select(
      tx
        .select({
          userId: users.id,
          away: sql<boolean>`false`.as("away"),
          lastAssignedAt: sql<Date | null>`null::timestamptz`.as("last_assigned_at"),
          updatedAt: sql<Date>`now()`.as("updated_at"),
        })
        .from(users)
        .where(
          and(
            activeAsesor(users.id),
            sql`not exists (select 1 from ${staffAvailability} where ${staffAvailability.userId} = ${users.id})`,
          ),
        ),
    )
    .onConflictDoNothing();
  const candidates = tx
    .select({ userId: staffAvailability.userId })
    .from(staffAvailability)
    .where(and(eq(staffAvailability.away, false), activeAsesor(staffAvailability.userId)))
    .orderBy(sql`${staffAvailability.lastAssignedAt} asc nulls first`, asc(staffAvailability.userId))
    .limit(1);
  const [free] = await candidates.for("update", { skipLocked: true });
  const chosen = free ?? (await candidates.for("update"))[0];
  if (!chosen) return null;
  // The database's clock, not the lead's time: turns must be strictly ordered even for leads stamped alike.
  await tx
    .update(staffAvailability)
    .set({ lastAssignedAt: sql`clock_timestamp()` })
    .where(eq(staffAvailability.userId, chosen.userId));
  return chosen.userId;
}

/** Sets one staff member's away flag (their own, or anyone's by an admin). */
export async function setAway(db: Tx, userId: string, away: boolean, at: Date): Promise<void> {
  await db
    .insert(staffAvailability)
    .values({ userId, away, updatedAt: at })
    .onConflictDoUpdate({ target: staffAvailability.userId, set: { away, updatedAt: at } });
}

export async function isAway(db: Pick<Database, "select">, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ away: staffAvailability.away })
    .from(staffAvailability)
    .where(eq(staffAvailability.userId, userId));
  return row?.away ?? false;
}

/** Names of staff members by id (history actors, the assignee). */
export async function staffNames(db: Pick<Database, "select">, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, `${row.firstName} ${row.lastName}`.trim()]));
}
