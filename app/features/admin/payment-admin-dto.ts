import type { PaymentTone } from "~/domain/payment-labels";
import type { DepositRule, PaymentStatus } from "~/domain/payments";
import type { DateLabel } from "./admin-format";
import type { PaymentFilters } from "./payment-admin-schemas";

/** /admin/pagos' page data (ADR 036), client-safe: the route's components read these types. */

export interface PaymentAttemptDto {
  id: string;
  created: DateLabel;
  patientName: string;
  patientEmail: string;
  concept: string;
  kindLabel: string;
  amount: number;
  amountLabel: string;
  refundedLabel: string | null;
  status: PaymentStatus;
  statusLabel: string;
  statusTone: PaymentTone;
  method: string;
  buyOrder: string;
  reconciliation: string;
  checks: number;
  lastError: string | null;
  /** Pesos an admin may still refund (paid, less refunded and pending refunds); 0 when none. */
  refundable: number;
  refundableLabel: string;
}

export interface ChargeDto {
  id: string;
  concept: string;
  patientName: string;
  patientEmail: string;
  amountLabel: string;
  /** Late fees: what the deposit covered; balances: when it was paid. */
  note: string;
  created: DateLabel;
}

export interface DepositRuleDto {
  treatmentId: number;
  name: string;
  priceLabel: string;
  kind: DepositRule["kind"];
  /** The form's value: pesos for a fixed amount, a percentage, or "". */
  value: string;
  /** "Abono: $170.000" on the list price, or "Sin abono". */
  summary: string;
}

export interface PaymentsPageDto {
  filters: PaymentFilters;
  query: string;
  canManage: boolean;
  totals: { paid: string; refunded: string; net: string; pending: string };
  limit: number;
  attempts: PaymentAttemptDto[];
  fees: ChargeDto[];
  balances: ChargeDto[];
  deposits: DepositRuleDto[] | null;
}
