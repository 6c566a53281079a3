import { and, desc, eq, gte, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clinicalRecordAccess, clinicalRecordBindings, clinicalRecordCodes, users } from "~/db/schema";

export type BindingRow = typeof clinicalRecordBindings.$inferSelect;
export type CodeRow = typeof clinicalRecordCodes.$inferSelect;
export type AccessRow = typeof clinicalRecordAccess.$inferSelect;
export type NewAccessRow = typeof clinicalRecordAccess.$inferInsert;

type Reader = Pick<Database, "select">;

export async function findBinding(db: Reader, userId: string): Promise<BindingRow | undefined> {
  const [row] = await db
    .select()
    .from(clinicalRecordBindings)
    .where(eq(clinicalRecordBindings.userId, userId))
    .limit(1);
  return row;
}

export async function findBindingOfPatient(
  db: Reader,
  dentalinkPatientId: string,
): Promise<BindingRow | undefined> {
  const [row] = await db
    .select()
    .from(clinicalRecordBindings)
    .where(eq(clinicalRecordBindings.dentalinkPatientId, dentalinkPatientId))
    .limit(1);
  return row;
}

/** Binds, unless the account or the patient is bound already (both unique): true when this call bound them. */
export async function insertBinding(
  db: Pick<Database, "insert">,
  binding: { userId: string; dentalinkPatientId: string; rut: string },
): Promise<boolean> {
  const rows = await db
    .insert(clinicalRecordBindings)
    .values(binding)
    .onConflictDoNothing()
    .returning({ userId: clinicalRecordBindings.userId });
  return rows.length === 1;
}

/** 'Cerrar Sesión': the record stays closed for the account until it is reopened (password or a new code). */
export async function closeBinding(db: Pick<Database, "update">, userId: string, now: Date): Promise<void> {
  await db
    .update(clinicalRecordBindings)
    .set({ closedAt: now })
    .where(and(eq(clinicalRecordBindings.userId, userId), sql`${clinicalRecordBindings.closedAt} is null`));
}

export async function reopenBinding(db: Pick<Database, "update">, userId: string): Promise<void> {
  await db
    .update(clinicalRecordBindings)
    .set({ closedAt: null })
    .where(and(eq(clinicalRecordBindings.userId, userId), isNotNull(clinicalRecordBindings.closedAt)));
}

/** The e-mail addresses of the accounts that asked for a code for this RUT since `since` (the clinic's alert). */
export async function codeRequesters(
  db: Pick<Database, "selectDistinct">,
  options: { rut: string; since: Date },
): Promise<string[]> {
  const rows = await db
    .selectDistinct({ email: users.email })
    .from(clinicalRecordCodes)
    .innerJoin(users, eq(users.id, clinicalRecordCodes.userId))
    .where(and(eq(clinicalRecordCodes.rut, options.rut), gte(clinicalRecordCodes.createdAt, options.since)))
    .orderBy(users.email)
    .limit(50);
  return rows.map((row) => row.email);
}

/** A new code replaces the account's earlier ones (only the newest can be used). */
export async function insertCode(
  db: Pick<Database, "insert" | "update">,
  code: { userId: string; rut: string; dentalinkPatientId: string | null; codeHash: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await db
    .update(clinicalRecordCodes)
    .set({ consumedAt: now })
    .where(and(eq(clinicalRecordCodes.userId, code.userId), sql`${clinicalRecordCodes.consumedAt} is null`));
  await db.insert(clinicalRecordCodes).values(code);
}

/** The account's newest code that was neither used nor replaced. */
export async function findOpenCode(db: Reader, userId: string): Promise<CodeRow | undefined> {
  const [row] = await db
    .select()
    .from(clinicalRecordCodes)
    .where(and(eq(clinicalRecordCodes.userId, userId), sql`${clinicalRecordCodes.consumedAt} is null`))
    .orderBy(desc(clinicalRecordCodes.createdAt))
    .limit(1);
  return row;
}

/** Counts one attempt, atomically; answers the count after it. */
export async function countAttempt(db: Pick<Database, "update">, codeId: string): Promise<number> {
  const [row] = await db
    .update(clinicalRecordCodes)
    .set({ attempts: sql`${clinicalRecordCodes.attempts} + 1` })
    .where(eq(clinicalRecordCodes.id, codeId))
    .returning({ attempts: clinicalRecordCodes.attempts });
  return row?.attempts ?? Number.POSITIVE_INFINITY;
}

export async function consumeCode(db: Pick<Database, "update">, codeId: string, now: Date): Promise<void> {
  await db.update(clinicalRecordCodes).set({ consumedAt: now }).where(eq(clinicalRecordCodes.id, codeId));
}

// ---- The access register (append-only: only inserts and reads here) ------------------------------------------

export async function recordAccess(
  db: Pick<Database, "insert">,
  rows: readonly NewAccessRow[],
): Promise<void> {
  if (rows.length > 0) await db.insert(clinicalRecordAccess).values([...rows]);
}

/** Who opened this patient's record, newest first (the patient's own view: other people's reads only). */
export async function accessesOfPatient(
  db: Reader,
  options: {
    rut: string;
    excludeActorId?: string;
    resources?: ReadonlyArray<AccessRow["resource"]>;
    outcome?: string;
    limit: number;
  },
): Promise<AccessRow[]> {
  return db
    .select()
    .from(clinicalRecordAccess)
    .where(
      and(
        eq(clinicalRecordAccess.rut, options.rut),
        options.excludeActorId ? ne(clinicalRecordAccess.actorId, options.excludeActorId) : undefined,
        options.resources ? inArray(clinicalRecordAccess.resource, [...options.resources]) : undefined,
        options.outcome ? eq(clinicalRecordAccess.outcome, options.outcome) : undefined,
      ),
    )
    .orderBy(desc(clinicalRecordAccess.createdAt), desc(clinicalRecordAccess.id))
    .limit(options.limit);
}

/** The newest register rows (of one patient when `rut` is given), for /admin/auditoria. */
export async function latestAccesses(
  db: Reader,
  options: { rut?: string; limit: number },
): Promise<AccessRow[]> {
  return db
    .select()
    .from(clinicalRecordAccess)
    .where(options.rut ? eq(clinicalRecordAccess.rut, options.rut) : undefined)
    .orderBy(desc(clinicalRecordAccess.createdAt), desc(clinicalRecordAccess.id))
    .limit(options.limit);
}

/** The staff member's latest reasoned lookup of this RUT since `since` (their grant to open its files). */
export async function latestStaffLookup(
  db: Reader,
  options: { actorId: string; rut: string; since: Date },
): Promise<AccessRow | undefined> {
  const [row] = await db
    .select()
    .from(clinicalRecordAccess)
    .where(
      and(
        eq(clinicalRecordAccess.actorId, options.actorId),
        eq(clinicalRecordAccess.rut, options.rut),
        eq(clinicalRecordAccess.resource, "paciente"),
        eq(clinicalRecordAccess.outcome, "ok"),
        gte(clinicalRecordAccess.createdAt, options.since),
      ),
    )
    .orderBy(desc(clinicalRecordAccess.createdAt))
    .limit(1);
  return row;
}
