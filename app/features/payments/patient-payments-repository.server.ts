import { and, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { charges, paymentRefunds, payments, users } from "~/db/schema";

/** The patient's own money rows (ADR 036): every query is filtered by the session's patient id. */

type Reader = Pick<Database, "select">;

export function chargesOfPatient(db: Reader, patientId: string) {
  return db.select().from(charges).where(eq(charges.patientId, patientId)).orderBy(desc(charges.createdAt));
}

export function paymentsOfPatient(db: Reader, patientId: string) {
  return db
    .select({ payment: payments, concept: charges.concept })
    .from(payments)
    .innerJoin(charges, eq(charges.id, payments.chargeId))
    .where(eq(payments.patientId, patientId))
    .orderBy(desc(payments.createdAt));
}

export function refundsOfPatient(db: Reader, patientId: string) {
  return db
    .select({ refund: paymentRefunds, concept: charges.concept })
    .from(paymentRefunds)
    .innerJoin(payments, eq(payments.id, paymentRefunds.paymentId))
    .innerJoin(charges, eq(charges.id, payments.chargeId))
    .where(eq(payments.patientId, patientId))
    .orderBy(desc(paymentRefunds.createdAt));
}

/** One of the patient's payments with its charge, or undefined (another patient's id reads as none). */
export async function paymentOfPatient(db: Reader, patientId: string, paymentId: string) {
  const [row] = await db
    .select({ payment: payments, charge: charges })
    .from(payments)
    .innerJoin(charges, eq(charges.id, payments.chargeId))
    .where(and(eq(payments.id, paymentId), eq(payments.patientId, patientId)));
  return row;
}

export function refundsOfPayment(db: Reader, paymentId: string) {
  return db
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.paymentId, paymentId))
    .orderBy(paymentRefunds.createdAt);
}

export async function chargeOfPatient(db: Reader, patientId: string, chargeId: string) {
  const [row] = await db
    .select({ id: charges.id, status: charges.status })
    .from(charges)
    .where(and(eq(charges.id, chargeId), eq(charges.patientId, patientId)));
  return row;
}

export async function patientIdentity(db: Reader, patientId: string) {
  const [row] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, rut: users.rut })
    .from(users)
    .where(eq(users.id, patientId));
  return row;
}

/** Authorized money per charge (what chargeDue counts as paid online). */
export async function paidOnlineByCharge(db: Reader, chargeIds: string[]) {
  if (chargeIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ chargeId: payments.chargeId, amount: payments.amount })
    .from(payments)
    .where(
      and(
        inArray(payments.chargeId, chargeIds),
        inArray(payments.status, ["authorized", "refunded", "partially_refunded"]),
      ),
    );
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.chargeId, (sums.get(row.chargeId) ?? 0) + row.amount);
  return sums;
}
