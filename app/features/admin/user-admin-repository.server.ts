import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { accountColumns } from "~/db/accounts.server";
import type { Database } from "~/db/client.server";
import { sessions, users } from "~/db/schema";

/** `%`, `_` and the escape character itself are literals in the search box, not wildcards. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function searchCondition(query: string): SQL | undefined {
  if (!query) return undefined;
  const pattern = `%${escapeLike(query)}%`;
  return or(
    ilike(users.firstName, pattern),
    ilike(users.lastName, pattern),
    ilike(users.email, pattern),
    // "Rodrigo Fuentes" finds Rodrigo Fuentes too.
    sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`,
  );
}

const listColumns = { id: users.id, ...accountColumns, createdAt: users.createdAt };

/** One page of users matching `query` (first name, last name or e-mail; case-insensitive), newest first. */
export async function searchUsers(db: Database, options: { query: string; limit: number; offset: number }) {
  const where = searchCondition(options.query);
  const [totalRow] = await db.select({ total: count() }).from(users).where(where);
  const rows = await db
    .select(listColumns)
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(options.limit)
    .offset(options.offset);
  return { rows, total: totalRow?.total ?? 0 };
}

/** The fields of the detail page. */
export async function findUserDetail(db: Database, userId: string) {
  const [row] = await db
    .select({
      ...listColumns,
      phone: users.phone,
      rut: users.rut,
      professionalTitle: users.professionalTitle,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export async function countActiveSessions(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), sql`${sessions.expiresAt} > now()`));
  return row?.total ?? 0;
}

/**
 * The target of a change, locked until the transaction ends so two administrators acting on one account at once
 * are applied one after the other.
 */
export async function lockUser(db: Database, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      deactivatedAt: users.deactivatedAt,
      professionalTitle: users.professionalTitle,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  return row;
}

/** A dentist's title ("dr", "dra") or none (null). */
export async function setProfessionalTitle(
  db: Database,
  userId: string,
  title: string | null,
): Promise<void> {
  await db.update(users).set({ professionalTitle: title, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function setDeactivatedAt(db: Database, userId: string, at: Date | null): Promise<void> {
  await db.update(users).set({ deactivatedAt: at, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** Deletes every session of the user (they are signed out on their next request); returns how many. */
export async function deleteSessionsOf(db: Database, userId: string): Promise<number> {
  const deleted = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return deleted.length;
}
