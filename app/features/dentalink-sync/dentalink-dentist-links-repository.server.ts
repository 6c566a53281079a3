import { dentistDisplayName } from "~/domain/dentist-name";
import { and, asc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { activeGrantOf, grantedRole } from "~/db/accounts.server";
import type { Database } from "~/db/client.server";
import { auditLog, dentalinkDentistLinks, outbox, roles, userRoles, users } from "~/db/schema";
import { DENTALINK_APPOINTMENT_KIND } from "./dentalink-writethrough-repository.server";

type Reader = Pick<Database, "select">;

export type DentistLinkRow = typeof dentalinkDentistLinks.$inferSelect;

/** Our dentists (the dentista role, not deactivated), by last name. */
export async function portalDentists(db: Reader) {
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      title: users.professionalTitle,
    })
    .from(users)
    .innerJoin(userRoles, activeGrantOf(eq(userRoles.userId, users.id)))
    .innerJoin(roles, and(grantedRole, eq(roles.name, "dentista")))
    .where(sql`${users.deactivatedAt} is null`)
    .orderBy(asc(users.lastName), asc(users.firstName));
}

export async function isPortalDentist(db: Reader, userId: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(userRoles, activeGrantOf(eq(userRoles.userId, users.id)))
    .innerJoin(roles, and(grantedRole, eq(roles.name, "dentista")))
    .where(eq(users.id, userId))
    .limit(1);
  return Boolean(row);
}

export async function dentistLinks(db: Reader): Promise<DentistLinkRow[]> {
  return db.select().from(dentalinkDentistLinks);
}

export async function dentistLink(db: Reader, dentistId: string): Promise<DentistLinkRow | null> {
  const [row] = await db
    .select()
    .from(dentalinkDentistLinks)
    .where(eq(dentalinkDentistLinks.dentistId, dentistId));
  return row ?? null;
}

/** Links found by name; an existing row (an admin's choice included) or a taken Dentalink id is left alone. */
export async function insertNameLinks(db: Pick<Database, "insert">, pairs: ReadonlyMap<string, string>) {
  for (const [dentistId, dentalinkDentistId] of pairs) {
    await db
      .insert(dentalinkDentistLinks)
      .values({ dentistId, dentalinkDentistId, source: "name" })
      .onConflictDoNothing();
  }
}

/** Whose link is this Dentalink dentist (another dentist of ours), if anybody's. */
export async function linkedTo(db: Reader, dentalinkDentistId: string) {
  const [row] = await db
    .select({ dentistId: dentalinkDentistLinks.dentistId })
    .from(dentalinkDentistLinks)
    .where(eq(dentalinkDentistLinks.dentalinkDentistId, dentalinkDentistId));
  return row?.dentistId ?? null;
}

/** An admin's link (or deliberate absence of one) and its audit entry, in one transaction. */
export async function saveAdminLink(
  db: Database,
  change: {
    dentistId: string;
    dentalinkDentistId: string | null;
    actor: { id: string; roles: readonly string[]; ip: string | null };
    previous: string | null;
  },
) {
  await db.transaction(async (tx) => {
    const now = new Date();
    await tx
      .insert(dentalinkDentistLinks)
      .values({
        dentistId: change.dentistId,
        dentalinkDentistId: change.dentalinkDentistId,
        source: "admin",
        updatedBy: change.actor.id,
      })
      .onConflictDoUpdate({
        target: dentalinkDentistLinks.dentistId,
        set: {
          dentalinkDentistId: change.dentalinkDentistId,
          source: "admin",
          updatedBy: change.actor.id,
          updatedAt: now,
        },
      });
    await tx.insert(auditLog).values({
      actorId: change.actor.id,
      actorRoles: change.actor.roles.join(","),
      action: "dentalink.dentist_linked",
      targetUserId: change.dentistId,
      details: { dentalinkDentistId: change.dentalinkDentistId, previous: change.previous },
      ip: change.actor.ip,
    });
  });
}

/**
 * Puts a write-through that failed (for good, or is waiting for its next try) back in the queue now, with a full
 * set of attempts, and audits it. Answers false when there is no such row to retry.
 */
export async function requeueWriteThrough(
  db: Database,
  outboxId: string,
  actor: { id: string; roles: readonly string[]; ip: string | null },
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(outbox)
      .set({ status: "pending", attempts: 0, nextAttemptAt: new Date() })
      .where(
        and(
          eq(outbox.id, outboxId),
          eq(outbox.kind, DENTALINK_APPOINTMENT_KIND),
          or(eq(outbox.status, "failed"), and(eq(outbox.status, "pending"), isNotNull(outbox.lastError))),
        ),
      )
      .returning({ id: outbox.id, payload: outbox.payload });
    if (!row) return false;
    await tx.insert(auditLog).values({
      actorId: actor.id,
      actorRoles: actor.roles.join(","),
      action: "dentalink.writethrough_retried",
      details: { outboxId: row.id, appointmentId: (row.payload as { appointmentId?: string }).appointmentId },
      ip: actor.ip,
    });
    return true;
  });
}

export async function dentistNames(db: Reader, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      title: users.professionalTitle,
    })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, dentistDisplayName(row)]));
}
