import type { Database } from "~/db/client.server";
import { clinicDate, clinicTime } from "~/domain/clinic-time";
import { CSV_BOM, csvCell, csvRow } from "~/domain/csv";
import { formatCLP } from "~/domain/format";
import { depositAmount, depositRuleProblem, type DepositRule, type PaymentStatus } from "~/domain/payments";
import { chargeKindLabel, paymentMethodSummary, paymentStatusLabel } from "~/domain/payment-labels";
import { hasAdminRole, STAFF_ROLES } from "~/domain/roles";
import { depositRuleOf, refundDeposit } from "~/features/payments/booking-payment-service.server";
import { adminRefund, waiveFee } from "~/features/payments/refund-service.server";
import { AppError } from "~/lib/base/errors";
import { assertAdmin, type AdminActor } from "./admin-actor.server";
import { dateLabel } from "./admin-format";
import { recordAudit } from "./audit-repository.server";
import type { ChargeDto, PaymentAttemptDto, PaymentsPageDto } from "./payment-admin-dto";
import { PENDING_RECONCILIATION_LABEL, settledByLabels } from "./payment-admin-options";
import {
  balancesToRegister,
  listAttempts,
  markRegisteredAtDentalink,
  pendingRefundTotals,
  periodTotals,
  treatmentDepositFor,
  treatmentsWithDeposits,
  upsertTreatmentDeposit,
  waivableFees,
  type AttemptRow,
} from "./payment-admin-repository.server";
import {
  parsePaymentFilters,
  paymentFilterQuery,
  PAYMENTS_LIST_LIMIT,
  type PaymentAction,
} from "./payment-admin-schemas";

export type { ChargeDto, DepositRuleDto, PaymentAttemptDto, PaymentsPageDto } from "./payment-admin-dto";

/**
 * /admin/pagos (ADR 036): staff read the attempts, the period's totals and the fees as DTOs; only an admin refunds,
 * forgives a fee, marks a balance recorded at Dentalink or sets a treatment's deposit, each audited.
 */

/** The CSV holds every attempt of the range up to this many rows (a year of the clinic's payments fits). */
export const PAYMENTS_CSV_LIMIT = 20_000;
const FEES_LIMIT = 100;

/** Staff read; an asesor may look at payments (to answer patients), never change them. */
function assertStaff(actor: AdminActor): void {
  if (!actor.roles.some((role) => (STAFF_ROLES as readonly string[]).includes(role))) {
    throw new AppError("FORBIDDEN", "No tienes permiso para ver esta página.");
  }
}

const patientName = (row: { patientFirstName: string; patientLastName: string }) =>
  `${row.patientFirstName} ${row.patientLastName}`.trim();

function reconciliationLabel(row: Pick<AttemptRow, "status" | "settledBy">): string {
  if (row.status === "created") return PENDING_RECONCILIATION_LABEL;
  return row.settledBy ? (settledByLabels[row.settledBy] ?? row.settledBy) : "—";
}

function attemptDto(row: AttemptRow, pending: number): PaymentAttemptDto {
  const paid = row.status === "authorized" || row.status === "partially_refunded";
  const refundable = paid ? Math.max(0, row.amount - row.refundedAmount - pending) : 0;
  return {
    id: row.id,
    created: dateLabel(row.createdAt),
    patientName: patientName(row),
    patientEmail: row.patientEmail,
    concept: row.concept,
    kindLabel: chargeKindLabel(row.kind),
    amount: row.amount,
    amountLabel: formatCLP(row.amount),
    refundedLabel:
      row.refundedAmount > 0 || pending > 0
        ? [
            row.refundedAmount > 0 ? `Reembolsado ${formatCLP(row.refundedAmount)}` : null,
            pending > 0 ? `${formatCLP(pending)} en curso` : null,
          ]
            .filter(Boolean)
            .join(" · ")
        : null,
    status: row.status as PaymentStatus,
    statusLabel: paymentStatusLabel(row.status).label,
    statusTone: paymentStatusLabel(row.status).tone,
    method: paymentMethodSummary(row) ?? "—",
    buyOrder: row.buyOrder,
    reconciliation: reconciliationLabel(row),
    checks: row.checks,
    lastError: row.lastError,
    refundable,
    refundableLabel: formatCLP(refundable),
  };
}

type ChargeRow = Awaited<ReturnType<typeof waivableFees>>[number];

function chargeDto(row: ChargeRow, note: string): ChargeDto {
  return {
    id: row.id,
    concept: row.concept,
    patientName: patientName(row),
    patientEmail: row.patientEmail,
    amountLabel: formatCLP(row.amount),
    note,
    created: dateLabel(row.createdAt),
  };
}

function ruleSummary(rule: DepositRule, price: number): string {
  if (rule.kind === "none") return "Sin abono";
  const amount = depositAmount(rule, price);
  return rule.kind === "percent"
    ? `${rule.percent} % del precio: ${formatCLP(amount)}`
    : `Monto fijo: ${formatCLP(amount)}`;
}

/** The page: filters from the query, the period's totals, the attempts, and for admins what they may act on. */
export async function paymentsPage(
  db: Database,
  actor: AdminActor,
  params: URLSearchParams,
  now = new Date(),
): Promise<PaymentsPageDto> {
  assertStaff(actor);
  const canManage = hasAdminRole(actor.roles);
  const filters = parsePaymentFilters(params, now);
  const [rows, totals, fees, balances, treatments] = await Promise.all([
    listAttempts(db, filters, PAYMENTS_LIST_LIMIT),
    periodTotals(db, filters),
    waivableFees(db, FEES_LIMIT),
    balancesToRegister(db, FEES_LIMIT),
    canManage ? treatmentsWithDeposits(db) : Promise.resolve(null),
  ]);
  const pending = await pendingRefundTotals(
    db,
    rows.map((row) => row.id),
  );
  return {
    filters,
    query: paymentFilterQuery(filters),
    canManage,
    totals: {
      paid: formatCLP(totals.paid),
      refunded: formatCLP(totals.refunded),
      net: formatCLP(totals.paid - totals.refunded),
      pending: formatCLP(totals.pending),
    },
    limit: PAYMENTS_LIST_LIMIT,
    attempts: rows.map((row) => attemptDto(row, pending.get(row.id) ?? 0)),
    fees: fees.map((row) =>
      chargeDto(
        row,
        row.creditedAmount > 0
          ? `El abono cubrió ${formatCLP(row.creditedAmount)}; condonar lo devuelve al paciente.`
          : "Pendiente de pago.",
      ),
    ),
    balances: balances.map((row) =>
      chargeDto(
        row,
        [
          row.paidAt ? `Pagado el ${dateLabel(row.paidAt).label}` : "Pagado",
          row.dentalinkBudgetId ? `presupuesto Dentalink N.º ${row.dentalinkBudgetId}` : null,
        ]
          .filter(Boolean)
          .join(", ") + ".",
      ),
    ),
    deposits:
      treatments?.map((row) => {
        const rule = depositRuleOf(row.kind ? { kind: row.kind, value: row.value ?? 0 } : undefined);
        return {
          treatmentId: row.id,
          name: row.name,
          priceLabel: formatCLP(row.price),
          kind: rule.kind,
          value:
            rule.kind === "fixed" ? String(rule.amount) : rule.kind === "percent" ? String(rule.percent) : "",
          summary: ruleSummary(rule, row.price),
        };
      }) ?? null,
  };
}

export const PAYMENTS_CSV_HEADER = [
  "Fecha",
  "Paciente",
  "E-mail",
  "Concepto",
  "Tipo",
  "Monto",
  "Reembolsado",
  "Estado",
  "Método",
  "Orden de compra",
  "Conciliación",
  "Verificaciones",
  "Último error",
];

/** "2026-11-25 14:05" on the clinic's clock, as in the lead export: Excel es-CL reads it as a date and time. */
const clinicStamp = (instant: Date) => `${clinicDate(instant)} ${clinicTime(instant)}`;

/** The attempts of the page's filters as CSV in the product's one dialect (domain/csv.ts, ADR 027); audited. */
export async function paymentsCsv(
  db: Database,
  actor: AdminActor,
  params: URLSearchParams,
  now = new Date(),
): Promise<{ filename: string; body: string }> {
  assertStaff(actor);
  const filters = parsePaymentFilters(params, now);
  const rows = await listAttempts(db, filters, PAYMENTS_CSV_LIMIT);
  // A download of patients' payments in bulk is recorded, as the lead export is.
  await recordAudit(db, {
    actorId: actor.id,
    actorRoles: actor.roles,
    action: "payment.export",
    targetUserId: null,
    details: { filters, rows: rows.length },
    ip: actor.ip,
  });
  const lines = rows.map((row) =>
    csvRow([
      csvCell(clinicStamp(row.createdAt)),
      csvCell(patientName(row)),
      csvCell(row.patientEmail),
      csvCell(row.concept),
      csvCell(chargeKindLabel(row.kind)),
      csvCell(row.amount),
      csvCell(row.refundedAmount),
      csvCell(paymentStatusLabel(row.status).label),
      csvCell(paymentMethodSummary(row) ?? ""),
      csvCell(row.buyOrder),
      csvCell(reconciliationLabel(row)),
      csvCell(row.checks),
      csvCell(row.lastError),
    ]),
  );
  return {
    filename: `pagos-${filters.from}-a-${filters.to}.csv`,
    body: CSV_BOM + csvRow(PAYMENTS_CSV_HEADER.map(csvCell)) + lines.join(""),
  };
}

/** Whole pesos from the deposit form's value: "", "15000" or "15.000". */
function ruleOf(action: Extract<PaymentAction, { intent: "deposit" }>): DepositRule {
  if (action.kind === "none") return { kind: "none" };
  const raw = action.value
    .replace(/^\$\s*/, "")
    .replace(/\./g, "")
    .replace(/\s*%$/, "");
  const number = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  return action.kind === "fixed" ? { kind: "fixed", amount: number } : { kind: "percent", percent: number };
}

/** One admin action of the page; the Spanish message to show. Every one re-checks the admin role. */
export async function paymentAdminAction(
  db: Database,
  actor: AdminActor,
  action: PaymentAction,
  now = new Date(),
): Promise<string> {
  assertAdmin(actor);
  switch (action.intent) {
    case "refund":
      await adminRefund(db, actor, {
        paymentId: action.paymentId,
        amount: action.amount,
        reason: action.reason,
      });
      return `Reembolso de ${formatCLP(action.amount)} solicitado a Webpay.`;
    case "waive":
      await waiveFee(
        db,
        actor,
        { chargeId: action.chargeId, reason: action.reason },
        (tx, appointmentId, amount) => refundDeposit(tx, appointmentId, amount, true),
      );
      return "Cargo condonado.";
    case "dentalink":
      return db.transaction(async (tx) => {
        const row = await markRegisteredAtDentalink(tx, action.chargeId, now);
        if (!row) {
          throw new AppError(
            "CONFLICT",
            "Ese pago ya estaba registrado en Dentalink o no es un pago de saldo.",
          );
        }
        await recordAudit(tx, {
          actorId: actor.id,
          actorRoles: actor.roles,
          action: "payment.registered_at_dentalink",
          targetUserId: row.patientId,
          details: { chargeId: row.id, amount: row.amount },
          ip: actor.ip,
        });
        return "Pago marcado como registrado en Dentalink.";
      });
    case "deposit": {
      const rule = ruleOf(action);
      const problem = depositRuleProblem(rule);
      if (problem) throw new AppError("VALIDATION", problem);
      const value = rule.kind === "fixed" ? rule.amount : rule.kind === "percent" ? rule.percent : 0;
      return db.transaction(async (tx) => {
        const before = await treatmentDepositFor(tx, action.treatmentId);
        if (!before) throw new AppError("NOT_FOUND", "No encontramos ese tratamiento.");
        await upsertTreatmentDeposit(tx, {
          treatmentId: action.treatmentId,
          kind: rule.kind,
          value,
          updatedBy: actor.id,
          now,
        });
        await recordAudit(tx, {
          actorId: actor.id,
          actorRoles: actor.roles,
          action: "payment.deposit_rule_changed",
          targetUserId: null,
          details: {
            treatmentId: action.treatmentId,
            treatment: before.name,
            before: before.kind ? { kind: before.kind, value: before.value } : { kind: "none", value: 0 },
            after: { kind: rule.kind, value },
          },
          ip: actor.ip,
        });
        return `Abono de «${before.name}» guardado.`;
      });
    }
  }
}
