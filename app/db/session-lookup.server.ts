import { eq, sql } from "drizzle-orm";
import { accountColumns, activeRoleNamesJson } from "./accounts.server";
import type { Database } from "./client.server";
import { sessions, users } from "./schema";

export interface SessionRow {
  sessionId: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  deactivatedAt: Date | null;
  /** Active role names, lower-case, aggregated in the same statement. */
  roles: string[];
}

function buildLookup(db: Database, by: "token" | "id") {
  return db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
      userId: users.id,
      ...accountColumns,
      roles: activeRoleNamesJson(db),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(by === "token" ? sessions.token : sessions.id, sql.placeholder("key")))
    .prepare(`clinica_session_lookup_by_${by}`);
}

// Building the statement is a measurable share of a portal request's CPU; it is built once per database handle.
const prepared = new WeakMap<Database, Record<"token" | "id", ReturnType<typeof buildLookup>>>();

async function findSession(db: Database, by: "token" | "id", key: string): Promise<SessionRow | null> {
  let lookups = prepared.get(db);
  if (!lookups) {
    lookups = { token: buildLookup(db, "token"), id: buildLookup(db, "id") };
    prepared.set(db, lookups);
  }
  const [row] = await lookups[by].execute({ key });
  if (!row) return null;
  // The subquery's json arrives parsed from both drivers; a string would mean a driver change, so parse it too.
  const names: unknown = typeof row.roles === "string" ? JSON.parse(row.roles) : row.roles;
  return { ...row, roles: Array.isArray(names) ? names.map(String) : [] };
}

/** Session by token with its user and the user's active roles, in one round trip (null: no such session). */
export function findSessionByToken(db: Database, token: string): Promise<SessionRow | null> {
  return findSession(db, "token", token);
}

/** The same by the session's id (chat tokens bound to a session, ADR 032). */
export function findSessionById(db: Database, sessionId: string): Promise<SessionRow | null> {
  return findSession(db, "id", sessionId);
}

/**
 * Writes Better Auth's sliding refresh (a new expiry) and/or our activity time. False when the session is gone
 * (revoked meanwhile), which the caller must treat as signed out.
 */
export async function updateSessionTimes(
  db: Database,
  sessionId: string,
  change: { expiresAt?: Date; updatedAt: Date },
): Promise<boolean> {
  const updated = await db
    .update(sessions)
    .set(change)
    .where(eq(sessions.id, sessionId))
    .returning({ id: sessions.id });
  return updated.length > 0;
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}
