import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { charges, payments } from "~/db/schema";

/**
 * The balance charges of a patient's Dentalink budgets (ADR 036): every query is filtered by the patient's id and
 * by the budgets asked about.
 */

type Reader = Pick<Database, "select">;

/**
 * Per budget: what the patient paid online on balance charges that staff have not yet marked recorded at Dentalink,
 * net of what was refunded (a refund still pending counts as paid until it is done).
 */
export async function paidNotRegisteredByBudget(db: Reader, patientId: string, budgetIds: string[]) {
  const sums = new Map<string, number>();
  if (budgetIds.length === 0) return sums;
  const rows = await db
    .select({
      budgetId: charges.dentalinkBudgetId,
      paid: sql<number>`coalesce(sum(${payments.amount} - ${payments.refundedAmount}), 0)::int`,
    })
    .from(charges)
    .innerJoin(payments, eq(payments.chargeId, charges.id))
    .where(
      and(
        eq(charges.patientId, patientId),
        eq(charges.kind, "balance"),
        eq(charges.status, "paid"),
        isNull(charges.registeredAtDentalinkAt),
        inArray(charges.dentalinkBudgetId, budgetIds),
        inArray(payments.status, ["authorized", "partially_refunded", "refunded"]),
      ),
    )
    .groupBy(charges.dentalinkBudgetId);
  for (const row of rows) if (row.budgetId) sums.set(row.budgetId, Number(row.paid));
  return sums;
}

/** The patient's open balance charges of these budgets, with how many attempts each has and how many are open. */
export async function openBalanceCharges(db: Reader, patientId: string, budgetIds: string[]) {
  if (budgetIds.length === 0) return [];
  const rows = await db
    .select({
      id: charges.id,
      budgetId: charges.dentalinkBudgetId,
      amount: charges.amount,
      createdAt: charges.createdAt,
      attempts: count(payments.id),
      openAttempts: sql<number>`count(${payments.id}) filter (where ${payments.status} = 'created')::int`,
    })
    .from(charges)
    .leftJoin(payments, eq(payments.chargeId, charges.id))
    .where(
      and(
        eq(charges.patientId, patientId),
        eq(charges.kind, "balance"),
        eq(charges.status, "open"),
        inArray(charges.dentalinkBudgetId, budgetIds),
      ),
    )
    .groupBy(charges.id);
  return rows.map((row) => ({
    ...row,
    budgetId: row.budgetId ?? "",
    attempts: Number(row.attempts),
    openAttempts: Number(row.openAttempts),
  }));
}

/**
 * Serialises the balance payments of one patient's budget until the transaction ends, so that two tabs cannot both
 * take the same balance.
 */
export async function lockBudgetBalance(tx: Pick<Database, "execute">, patientId: string, budgetId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`balance:${patientId}:${budgetId}`}))`);
}

/** Locks these open charges (an attempt being started on one waits, or is waited for). */
export async function lockCharges(tx: Pick<Database, "select">, chargeIds: string[]) {
  if (chargeIds.length === 0) return;
  await tx.select({ id: charges.id }).from(charges).where(inArray(charges.id, chargeIds)).for("update");
}

/** Voids open balance charges the patient's new payment of the budget replaces; answers how many changed. */
export async function voidBalanceCharges(
  tx: Pick<Database, "update">,
  patientId: string,
  chargeIds: string[],
  now: Date,
) {
  if (chargeIds.length === 0) return 0;
  const rows = await tx
    .update(charges)
    .set({ status: "void", updatedAt: now })
    .where(
      and(
        inArray(charges.id, chargeIds),
        eq(charges.patientId, patientId),
        eq(charges.kind, "balance"),
        eq(charges.status, "open"),
      ),
    )
    .returning({ id: charges.id });
  return rows.length;
}

export async function insertBalanceCharge(
  tx: Pick<Database, "insert">,
  input: { patientId: string; budgetId: string; concept: string; amount: number; now: Date },
) {
  const [row] = await tx
    .insert(charges)
    .values({
      patientId: input.patientId,
      kind: "balance",
      dentalinkBudgetId: input.budgetId,
      concept: input.concept,
      amount: input.amount,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning({ id: charges.id });
  if (!row) throw new Error("insert returned nothing");
  return row.id;
}
