import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  appointments,
  charges,
  patientDepositFlags,
  treatmentDeposits,
  treatmentsCatalog,
} from "~/db/schema";
import { cancellationSettlement, holdExpiresAt, requiredDeposit, type DepositRule } from "~/domain/payments";
import {
  bookForPatient,
  cancelAppointment,
  reholdBooking,
  type BookingOptions,
  type BookingRequest,
} from "~/features/appointments/appointment-service.server";
import { assertNoShowsAllowBooking } from "~/features/no-shows/no-show-service.server";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import type { WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { AppError } from "~/lib/base/errors";
import { notifyPayment } from "./payment-notifications.server";
import { depositPaidFor, startAttempt } from "./payment-service.server";
import { requestRefund } from "./refund-service.server";

/**
 * Where payments meet appointments (ADR 036): the deposit a booking must leave, the booking held until it is paid,
 * 'Reintentar pago', and what a cancellation does with the deposit and the fee.
 */

export function depositRuleOf(row: { kind: string; value: number } | undefined): DepositRule {
  if (!row) return { kind: "none" };
  if (row.kind === "fixed") return { kind: "fixed", amount: row.value };
  if (row.kind === "percent") return { kind: "percent", percent: row.value };
  return { kind: "none" };
}

/** The money of a booking, shown before the payer leaves for Webpay (Ley 20.584 art. 11: prices known beforehand). */
export interface BookingMoney {
  treatmentName: string;
  price: number;
  deposit: number;
  /** What remains to be paid at the clinic after the deposit. */
  remainder: number;
}

/** The deposit the patient would leave for a treatment today: the treatment's rule, raised for repeated no-shows. */
export async function bookingMoney(
  db: Pick<Database, "select">,
  patientId: string,
  treatmentSlug: string,
): Promise<BookingMoney | null> {
  return (await bookingMoneyBySlug(db, patientId, treatmentSlug)).get(treatmentSlug) ?? null;
}

/** A treatment of the catalogue with its deposit rule: what booking it costs, before the patient's own flag. */
export interface DepositCatalogueRow {
  slug: string;
  name: string;
  price: number;
  kind: string | null;
  value: number | null;
}

/** The catalogue with each treatment's deposit rule (or one treatment's, with `onlySlug`). */
export async function depositCatalogue(
  db: Pick<Database, "select">,
  onlySlug?: string,
): Promise<DepositCatalogueRow[]> {
  return db
    .select({
      slug: treatmentsCatalog.slug,
      name: treatmentsCatalog.name,
      price: treatmentsCatalog.basePrice,
      kind: treatmentDeposits.kind,
      value: treatmentDeposits.value,
    })
    .from(treatmentsCatalog)
    .leftJoin(treatmentDeposits, eq(treatmentDeposits.treatmentId, treatmentsCatalog.id))
    .where(onlySlug === undefined ? undefined : eq(treatmentsCatalog.slug, onlySlug));
}

/** Whether the clinic requires this patient to leave a deposit on any treatment (repeated no-shows). */
export async function patientMustLeaveDeposit(
  db: Pick<Database, "select">,
  patientId: string,
): Promise<boolean> {
  const [flag] = await db
    .select({ required: patientDepositFlags.required })
    .from(patientDepositFlags)
    .where(eq(patientDepositFlags.patientId, patientId));
  return flag?.required ?? false;
}

/** What booking each treatment of `catalogue` costs a patient (price, deposit, remainder), by slug. */
export function bookingMoneyOf(
  catalogue: readonly DepositCatalogueRow[],
  mustLeaveDeposit: boolean,
): Map<string, BookingMoney> {
  const money = new Map<string, BookingMoney>();
  for (const row of catalogue) {
    const deposit = requiredDeposit({
      rule: depositRuleOf(row.kind ? { kind: row.kind, value: row.value ?? 0 } : undefined),
      price: row.price,
      patientMustLeaveDeposit: mustLeaveDeposit,
    });
    money.set(row.slug, {
      treatmentName: row.name,
      price: row.price,
      deposit,
      remainder: row.price - deposit,
    });
  }
  return money;
}

/** What booking costs the patient now, read fresh (the booking itself charges this). */
export async function bookingMoneyBySlug(
  db: Pick<Database, "select">,
  patientId: string,
  onlySlug?: string,
): Promise<Map<string, BookingMoney>> {
  const catalogue = await depositCatalogue(db, onlySlug);
  if (catalogue.length === 0) return new Map();
  return bookingMoneyOf(catalogue, await patientMustLeaveDeposit(db, patientId));
}

export type BookingResult =
  | { kind: "booked"; booked: Awaited<ReturnType<typeof bookForPatient>> }
  | { kind: "payment"; paymentId: string; booked: Awaited<ReturnType<typeof bookForPatient>> };

/**
 * Books for the patient. A treatment with a deposit, while online payment is on, holds the slot as "Pendiente de
 * pago" with its deposit charge (one transaction), then opens a Webpay attempt; without a deposit, or with payments
 * off, the booking is confirmed as before.
 */
export async function bookWithPayment(
  db: Database,
  patientId: string,
  request: BookingRequest,
  webpay: WebpayClient | null,
  now = new Date(),
  /** Runs in the booking's transaction once the row exists (a waitlist claim records itself there, ADR 040). */
  alsoInTransaction?: BookingOptions["inTransaction"],
): Promise<BookingResult> {
  // Repeated no-shows (ADR 042): with payments on the patient's flag raises the deposit below; without, a call.
  await assertNoShowsAllowBooking(db, patientId, webpay !== null, now);
  const money = webpay ? await bookingMoney(db, patientId, request.treatment) : null;
  if (!webpay || !money || money.deposit <= 0) {
    return {
      kind: "booked",
      booked: await bookForPatient(db, patientId, request, now, { inTransaction: alsoInTransaction }),
    };
  }
  let chargeId: string | undefined;
  const booked = await bookForPatient(db, patientId, request, now, {
    hold: { expiresAt: holdExpiresAt(now) },
    inTransaction: async (tx, held) => {
      await alsoInTransaction?.(tx, held);
      const [charge] = await tx
        .insert(charges)
        .values({
          patientId,
          kind: "deposit",
          appointmentId: held.id,
          concept: `Abono: ${held.treatmentName}`,
          amount: money.deposit,
        })
        .returning({ id: charges.id });
      chargeId = charge?.id;
    },
  });
  if (!chargeId) throw new Error("deposit charge not written");
  return { kind: "payment", paymentId: await startAttempt(db, patientId, chargeId, webpay, now), booked };
}

/**
 * 'Pagar' and 'Reintentar pago': a new attempt on one of the patient's open charges; a deposit whose booking was
 * released takes its slot again first (if it is still free). Answers the attempt's id.
 */
export async function payCharge(
  db: Database,
  patientId: string,
  chargeId: string,
  webpay: WebpayClient | null,
  now = new Date(),
): Promise<string> {
  const [charge] = await db
    .select()
    .from(charges)
    .where(and(eq(charges.id, chargeId), eq(charges.patientId, patientId)));
  if (!charge) throw new AppError("NOT_FOUND", "No encontramos ese cobro.");
  if (charge.status !== "open") throw new AppError("CONFLICT", "Este cobro ya no tiene un monto pendiente.");
  if (charge.kind === "deposit" && charge.appointmentId) {
    await reholdBooking(db, patientId, charge.appointmentId, holdExpiresAt(now), now);
  }
  return startAttempt(db, patientId, chargeId, webpay, now);
}

/**
 * Cancels one of the patient's appointments with the 24-hour policy and settles the money in the same transaction:
 * an unpaid deposit is voided; late, the fee becomes a charge paid first by the deposit (what is left of the fee is
 * owed and announced, what is left of the deposit refunded); in time, the deposit is refunded whole.
 */
export async function cancelWithSettlement(
  db: Database,
  patientId: string,
  appointmentId: string,
  now = new Date(),
) {
  const result = await cancelAppointment(db, patientId, appointmentId, now, {
    inTransaction: async (tx, cancelled) => {
      await tx
        .update(charges)
        .set({ status: "void", updatedAt: now })
        .where(
          and(
            eq(charges.appointmentId, appointmentId),
            eq(charges.kind, "deposit"),
            eq(charges.status, "open"),
          ),
        );
      const paid = await depositPaidFor(tx, appointmentId);
      const depositPaid = paid.reduce((sum, payment) => sum + payment.available, 0);
      const settlement = cancellationSettlement({ late: cancelled.late, fee: cancelled.fee, depositPaid });
      if (settlement.fee > 0) {
        const [treatment] = await tx
          .select({ name: treatmentsCatalog.name })
          .from(appointments)
          .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
          .where(eq(appointments.id, appointmentId));
        const concept = `Cancelación tardía: ${treatment?.name ?? "cita"}`;
        const [fee] = await tx
          .insert(charges)
          .values({
            patientId,
            kind: "late_cancellation",
            appointmentId,
            concept,
            amount: settlement.fee,
            creditedAmount: settlement.depositApplied,
            status: settlement.feeDue === 0 ? "paid" : "open",
            paidAt: settlement.feeDue === 0 ? now : null,
          })
          .returning({ id: charges.id });
        if (settlement.feeDue > 0 && fee) {
          await notifyPayment(tx, {
            event: "fee_pending",
            patientId,
            chargeId: fee.id,
            amount: settlement.feeDue,
            concept,
          });
        }
      }
      await refundDeposit(tx, appointmentId, settlement.depositRefund, cancelled.late);
    },
  });
  kickOutboxWorker();
  return result;
}

/** Refunds `amount` pesos of an appointment's paid deposit, spread over its payments (usually one). */
export async function refundDeposit(tx: Database, appointmentId: string, amount: number, late: boolean) {
  let left = amount;
  for (const payment of await depositPaidFor(tx, appointmentId)) {
    if (left <= 0) break;
    const part = Math.min(left, payment.available);
    if (part <= 0) continue;
    await requestRefund(tx, {
      paymentId: payment.paymentId,
      amount: part,
      reason: late
        ? "Devolución del abono que excede el cargo por cancelación tardía."
        : "Cancelación con la anticipación que permite la política: devolución del abono.",
      requestedBy: null,
    });
    left -= part;
  }
}
