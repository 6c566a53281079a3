import type { Database } from "~/db/client.server";
import type { DentalinkTreatment } from "~/integrations/dentalink/dentalink-mapping";
import { PAYMENTS_OFF_NOTICE } from "~/features/payments/patient-payments-dto";
import { startBalancePayment } from "~/features/payments/balance-payment-service.server";
import type { WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { AppError } from "~/lib/base/errors";
import { dentalinkReader } from "./dentalink-reader.server";
import { assertVerified, patientEntry, type ReadContext, type RecordReader } from "./record-actor.server";
import { findBinding, recordAccess } from "./record-repository.server";
import { BUDGET_NOT_FOUND_MESSAGE } from "./record-schema";
import { upstreamMessage } from "./record-upstream-error.server";

/**
 * 'Pagar saldo' on Mi Ficha's Pagos tab (ADR 036): the same guard as every read of the record (a verified account
 * whose RUT binding is open, ADR 021/029), then the budget and its balance read again from Dentalink on the server —
 * only among the bound patient's own budgets — and the payment handed to the payment service, which takes off what
 * was already paid online and opens the Webpay attempt. The read is registered like any other read of the record.
 */

export const RECORD_CLOSED_MESSAGE = "Abre tu ficha clínica para pagar el saldo de un presupuesto.";

export async function payRecordBalance(
  db: Database,
  reader: RecordReader,
  input: { budgetId: string; amount: number },
  context: ReadContext,
  webpay: WebpayClient | null,
): Promise<string> {
  assertVerified(reader);
  // Nothing is read from Dentalink (nor registered) for a payment that cannot be made.
  if (!webpay) throw new AppError("CONFLICT", PAYMENTS_OFF_NOTICE);
  const binding = await findBinding(db, reader.id);
  if (!binding || binding.closedAt !== null) throw new AppError("FORBIDDEN", RECORD_CLOSED_MESSAGE);
  const entry = (outcome: "ok" | "not_found" | "error") =>
    patientEntry(reader, context, {
      resource: "tratamientos",
      resourceId: input.budgetId,
      outcome,
      rut: binding.rut,
      dentalinkPatientId: binding.dentalinkPatientId,
    });
  let budgets: DentalinkTreatment[];
  try {
    budgets = await dentalinkReader().client.listTreatments(binding.dentalinkPatientId);
  } catch (error) {
    await recordAccess(db, [entry("error")]);
    throw new AppError("UPSTREAM_FAILED", upstreamMessage(error));
  }
  // Only a budget of the bound patient's own list: an id from the form never reaches another patient's budget.
  const budget = budgets.find((item) => item.id === input.budgetId);
  await recordAccess(db, [entry(budget ? "ok" : "not_found")]);
  if (!budget) throw new AppError("NOT_FOUND", BUDGET_NOT_FOUND_MESSAGE);
  return startBalancePayment(
    db,
    reader.id,
    { id: budget.id, name: budget.name, balance: budget.balanceClp ?? 0 },
    input.amount,
    webpay,
    context.now,
  );
}
