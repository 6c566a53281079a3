import { and, asc, desc, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { charges, paymentRefunds, payments, treatmentDeposits, treatmentsCatalog, users } from "~/db/schema";
import { addDays, startOfClinicDay } from "~/domain/clinic-time";
import type { PaymentFilters } from "./payment-admin-schemas";
import { escapeLike } from "./user-admin-repository.server";

/** The queries of /admin/pagos (ADR 036): attempts with their charge and patient, the period's totals, the fees. */

function patientSearch(query: string): SQL | undefined {
  if (!query) return undefined;
  const pattern = `%${escapeLike(query)}%`;
  return or(
    ilike(users.email, pattern),
    ilike(users.firstName, pattern),
    ilike(users.lastName, pattern),
    sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`,
  );
}

/** The period's bounds: from the start of `from` to the start of the day after `to`, Santiago days. */
function periodBounds(filters: PaymentFilters) {
  return { start: startOfClinicDay(filters.from), end: startOfClinicDay(addDays(filters.to, 1)) };
}

/** Every filter but the attempt's state (the totals cover every state of the period). */
function attemptConditions(filters: PaymentFilters, withStatus: boolean): SQL | undefined {
  const { start, end } = periodBounds(filters);
  return and(
    gte(payments.createdAt, start),
    lt(payments.createdAt, end),
    filters.kind ? eq(charges.kind, filters.kind) : undefined,
    withStatus && filters.status ? eq(payments.status, filters.status) : undefined,
    patientSearch(filters.search),
  );
}

const attemptColumns = {
  id: payments.id,
  createdAt: payments.createdAt,
  amount: payments.amount,
  refundedAmount: payments.refundedAmount,
  status: payments.status,
  buyOrder: payments.buyOrder,
  paymentTypeCode: payments.paymentTypeCode,
  installments: payments.installments,
  cardLast4: payments.cardLast4,
  settledBy: payments.settledBy,
  checks: payments.checks,
  lastError: payments.lastError,
  concept: charges.concept,
  kind: charges.kind,
  patientFirstName: users.firstName,
  patientLastName: users.lastName,
  patientEmail: users.email,
};

export type AttemptRow = Awaited<ReturnType<typeof listAttempts>>[number];

/** Attempts matching the filters, newest first. */
export async function listAttempts(db: Database, filters: PaymentFilters, limit: number) {
  return db
    .select(attemptColumns)
    .from(payments)
    .innerJoin(charges, eq(charges.id, payments.chargeId))
    .innerJoin(users, eq(users.id, payments.patientId))
    .where(attemptConditions(filters, true))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
}

/** Pesos asked for and not yet answered by Webpay, per payment. */
export async function pendingRefundTotals(db: Database, paymentIds: string[]): Promise<Map<string, number>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await db
    .select({
      paymentId: paymentRefunds.paymentId,
      total: sql<number>`coalesce(sum(${paymentRefunds.amount}), 0)`.mapWith(Number),
    })
    .from(paymentRefunds)
    .where(and(inArray(paymentRefunds.paymentId, paymentIds), eq(paymentRefunds.status, "pending")))
    .groupBy(paymentRefunds.paymentId);
  return new Map(rows.map((row) => [row.paymentId, row.total]));
}

/** Paid and refunded pesos of the period's attempts, and what is still owed on the period's open charges. */
export async function periodTotals(db: Database, filters: PaymentFilters) {
  const { start, end } = periodBounds(filters);
  const [money] = await db
    .select({
      paid: sql<number>`coalesce(sum(case when ${payments.status} in ('authorized', 'partially_refunded', 'refunded') then ${payments.amount} else 0 end), 0)`.mapWith(
        Number,
      ),
      refunded: sql<number>`coalesce(sum(${payments.refundedAmount}), 0)`.mapWith(Number),
    })
    .from(payments)
    .innerJoin(charges, eq(charges.id, payments.chargeId))
    .innerJoin(users, eq(users.id, payments.patientId))
    .where(attemptConditions(filters, false));
  const [owed] = await db
    .select({
      pending: sql<number>`coalesce(sum(${charges.amount} - ${charges.creditedAmount}), 0)`.mapWith(Number),
    })
    .from(charges)
    .innerJoin(users, eq(users.id, charges.patientId))
    .where(
      and(
        eq(charges.status, "open"),
        gte(charges.createdAt, start),
        lt(charges.createdAt, end),
        filters.kind ? eq(charges.kind, filters.kind) : undefined,
        patientSearch(filters.search),
      ),
    );
  return { paid: money?.paid ?? 0, refunded: money?.refunded ?? 0, pending: owed?.pending ?? 0 };
}

const chargeColumns = {
  id: charges.id,
  kind: charges.kind,
  concept: charges.concept,
  amount: charges.amount,
  creditedAmount: charges.creditedAmount,
  status: charges.status,
  createdAt: charges.createdAt,
  paidAt: charges.paidAt,
  dentalinkBudgetId: charges.dentalinkBudgetId,
  patientFirstName: users.firstName,
  patientLastName: users.lastName,
  patientEmail: users.email,
};

/**
 * Late-cancellation fees an admin may still forgive: open ones, and those the deposit covered whole (forgiving one
 * gives the deposit back). Oldest first: they have waited longest.
 */
export async function waivableFees(db: Database, limit: number) {
  return db
    .select(chargeColumns)
    .from(charges)
    .innerJoin(users, eq(users.id, charges.patientId))
    .where(
      and(
        eq(charges.kind, "late_cancellation"),
        or(
          eq(charges.status, "open"),
          and(eq(charges.status, "paid"), eq(charges.creditedAmount, charges.amount)),
        ),
      ),
    )
    .orderBy(asc(charges.createdAt))
    .limit(limit);
}

/** Balance payments received online and not yet recorded at Dentalink by staff (its API takes no payments). */
export async function balancesToRegister(db: Database, limit: number) {
  return db
    .select(chargeColumns)
    .from(charges)
    .innerJoin(users, eq(users.id, charges.patientId))
    .where(
      and(eq(charges.kind, "balance"), eq(charges.status, "paid"), isNull(charges.registeredAtDentalinkAt)),
    )
    .orderBy(asc(charges.paidAt))
    .limit(limit);
}

/** Marks a paid balance charge as recorded at Dentalink, once; the row when it changed. */
export async function markRegisteredAtDentalink(db: Pick<Database, "update">, chargeId: string, now: Date) {
  const [row] = await db
    .update(charges)
    .set({ registeredAtDentalinkAt: now, updatedAt: now })
    .where(
      and(
        eq(charges.id, chargeId),
        eq(charges.kind, "balance"),
        eq(charges.status, "paid"),
        isNull(charges.registeredAtDentalinkAt),
      ),
    )
    .returning({ id: charges.id, patientId: charges.patientId, amount: charges.amount });
  return row ?? null;
}

/** The catalogue with each treatment's deposit rule (none when it has no row). */
export async function treatmentsWithDeposits(db: Database) {
  return db
    .select({
      id: treatmentsCatalog.id,
      name: treatmentsCatalog.name,
      price: treatmentsCatalog.basePrice,
      kind: treatmentDeposits.kind,
      value: treatmentDeposits.value,
    })
    .from(treatmentsCatalog)
    .leftJoin(treatmentDeposits, eq(treatmentDeposits.treatmentId, treatmentsCatalog.id))
    .orderBy(asc(treatmentsCatalog.id));
}

export async function treatmentDepositFor(db: Pick<Database, "select">, treatmentId: number) {
  const [row] = await db
    .select({
      id: treatmentsCatalog.id,
      name: treatmentsCatalog.name,
      kind: treatmentDeposits.kind,
      value: treatmentDeposits.value,
    })
    .from(treatmentsCatalog)
    .leftJoin(treatmentDeposits, eq(treatmentDeposits.treatmentId, treatmentsCatalog.id))
    .where(eq(treatmentsCatalog.id, treatmentId));
  return row ?? null;
}

export async function upsertTreatmentDeposit(
  db: Pick<Database, "insert">,
  input: { treatmentId: number; kind: string; value: number; updatedBy: string; now: Date },
) {
  await db
    .insert(treatmentDeposits)
    .values({
      treatmentId: input.treatmentId,
      kind: input.kind,
      value: input.value,
      updatedBy: input.updatedBy,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .onConflictDoUpdate({
      target: treatmentDeposits.treatmentId,
      set: { kind: input.kind, value: input.value, updatedBy: input.updatedBy, updatedAt: input.now },
    });
}
