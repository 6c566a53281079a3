import type { Database } from "~/db/client.server";
import { balanceChargeHolds, balanceLeftToPay, balancePaymentDecision } from "~/domain/payments";
import type { WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { AppError } from "~/lib/base/errors";
import {
  insertBalanceCharge,
  lockBudgetBalance,
  lockCharges,
  openBalanceCharges,
  paidNotRegisteredByBudget,
  voidBalanceCharges,
} from "./balance-payment-repository.server";
import { PAYMENTS_OFF_NOTICE } from "./patient-payments-dto";
import { startAttempt } from "./payment-service.server";

/**
 * Paying (part of) a Dentalink budget's balance online (ADR 036). Dentalink's API takes no payments (it lists them
 * only, docs/research/dentalink-whatsapp-chile.md §1.2), so a balance payment lives in our database: a `charges` row
 * of kind "balance" with its budget's id, paid through Webpay like any charge, and listed on /admin/pagos for staff
 * to record at Dentalink by hand ('Registrar en Dentalink'). Until they do, Dentalink's balance does not show it, so
 * what was paid online and not yet recorded is taken off the balance here.
 */

/** A budget as the caller read it from Dentalink on the server, never as the browser sent it. */
export interface BudgetBalance {
  /** Dentalink's tratamiento id. */
  id: string;
  name: string;
  /** Whole pesos still owed, as Dentalink reports it now. */
  balance: number;
}

export const ALREADY_PAID_ONLINE_MESSAGE =
  "El saldo de este presupuesto ya fue pagado en línea o hay un pago en curso. La clínica lo registrará en Dentalink.";

export function balanceConcept(budgetName: string) {
  return `Saldo de presupuesto: ${budgetName}`;
}

/**
 * Per budget: what the patient paid online and staff have not recorded at Dentalink yet, plus what is being paid on
 * Webpay's form right now. Mi Ficha takes it off the balance Dentalink reports.
 */
export async function balanceTakenOnline(
  db: Pick<Database, "select">,
  patientId: string,
  budgetIds: string[],
  now = new Date(),
): Promise<Map<string, number>> {
  const [paid, open] = await Promise.all([
    paidNotRegisteredByBudget(db, patientId, budgetIds),
    openBalanceCharges(db, patientId, budgetIds),
  ]);
  const taken = new Map(paid);
  for (const charge of open) {
    if (!balanceChargeHolds({ ...charge, now })) continue;
    taken.set(charge.budgetId, (taken.get(charge.budgetId) ?? 0) + charge.amount);
  }
  return taken;
}

/**
 * 'Pagar saldo': a balance charge of `requested` pesos on the patient's budget, then its Webpay attempt; answers the
 * attempt's id. Under a lock per patient and budget: what is left to pay is the budget's balance less what was paid
 * online and not yet recorded at Dentalink and less what is on Webpay's form now; an amount over it is refused and
 * nothing is written. Open balance charges of the budget whose attempts all failed are replaced (voided), so an
 * abandoned amount is never paid later on top of the new one.
 */
export async function startBalancePayment(
  db: Database,
  patientId: string,
  budget: BudgetBalance,
  requested: number,
  webpay: WebpayClient | null,
  now = new Date(),
): Promise<string> {
  if (!webpay) throw new AppError("CONFLICT", PAYMENTS_OFF_NOTICE);
  const chargeId = await db.transaction(async (tx) => {
    await lockBudgetBalance(tx, patientId, budget.id);
    const candidates = await openBalanceCharges(tx, patientId, [budget.id]);
    await lockCharges(
      tx,
      candidates.map((charge) => charge.id),
    );
    // Read again under the charges' locks: an attempt started on one of them meanwhile is now visible.
    const open = candidates.length > 0 ? await openBalanceCharges(tx, patientId, [budget.id]) : [];
    const holding = open.filter((charge) => balanceChargeHolds({ ...charge, now }));
    const replaced = open.filter((charge) => !holding.includes(charge));
    const paid = (await paidNotRegisteredByBudget(tx, patientId, [budget.id])).get(budget.id) ?? 0;
    const left = balanceLeftToPay({
      balance: budget.balance,
      paidNotRegistered: paid,
      inProgress: holding.reduce((sum, charge) => sum + charge.amount, 0),
    });
    const decision = balancePaymentDecision({ balance: left, requested });
    if (!decision.allowed) {
      if (left > 0) throw new AppError("VALIDATION", decision.reason);
      throw new AppError("CONFLICT", budget.balance > 0 ? ALREADY_PAID_ONLINE_MESSAGE : decision.reason);
    }
    await voidBalanceCharges(
      tx,
      patientId,
      replaced.map((charge) => charge.id),
      now,
    );
    return insertBalanceCharge(tx, {
      patientId,
      budgetId: budget.id,
      concept: balanceConcept(budget.name),
      amount: requested,
      now,
    });
  });
  return startAttempt(db, patientId, chargeId, webpay, now);
}
