import { formatCLP } from "./format";

/**
 * The money rules of online payments (ADR 036). Pure: amounts are whole Chilean pesos, every decision takes `now`.
 * - A treatment may ask for a deposit ("abono") at booking: a fixed amount or a percentage of its price.
 * - A booking with a deposit holds its slot as "Pendiente de pago" for PAYMENT_HOLD_MINUTES.
 * - Each attempt to pay is one payment row with its own buy_order, moving through PAYMENT_TRANSITIONS.
 * - Cancelling late turns the 50% fee into a charge; the deposit is applied to it first, the rest of the deposit is
 *   refunded. Cancelling in time refunds the whole deposit.
 */

export const paymentStatuses = [
  "created",
  "authorized",
  "rejected",
  "aborted",
  "expired",
  "refunded",
  "partially_refunded",
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const chargeKinds = ["deposit", "late_cancellation", "balance"] as const;
export type ChargeKind = (typeof chargeKinds)[number];

/** open: owed; paid: covered (online or by the deposit); waived: forgiven by an admin; void: its booking was released. */
export const chargeStatuses = ["open", "paid", "waived", "void"] as const;
export type ChargeStatus = (typeof chargeStatuses)[number];

export const refundStatuses = ["pending", "done", "failed"] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** How long a booking waiting for its deposit keeps the slot. */
export const PAYMENT_HOLD_MINUTES = 15;
/**
 * How long Webpay's payment form stays open before it sends the payer back with a timeout (ADR 036): an attempt
 * nobody returned from is settled by the reconciliation only after this, plus WEBPAY_SETTLE_GRACE_MINUTES.
 */
export const WEBPAY_FORM_MINUTES = 10;
/** Slack after the form's deadline before the reconciliation asks Webpay about an attempt. */
export const WEBPAY_SETTLE_GRACE_MINUTES = 1;
/**
 * A commit claim older than this is abandoned (the instance died mid-commit) and may be taken again. Short, because
 * Webpay reverses an approved payment nobody commits within its (undocumented) window, ADR 036; longer than one commit
 * call may last (TRANSBANK_TIMEOUT_MS is capped at 12 s). A second commit is harmless: Webpay refuses it and the status
 * settles the attempt.
 */
export const COMMIT_CLAIM_SECONDS = 15;
/** Repeated no-shows leave this deposit on any treatment that asks for none (or less). */
export const REPEAT_NO_SHOW_DEPOSIT_PERCENT = 30;
/** Webpay's limit for a buy order (ADR 036). */
export const BUY_ORDER_MAX_LENGTH = 26;

const MINUTE_MS = 60_000;

export type DepositRule =
  { kind: "none" } | { kind: "fixed"; amount: number } | { kind: "percent"; percent: number };

/** The deposit a rule asks on a price: never more than the price, never a fraction of a peso. */
export function depositAmount(rule: DepositRule, price: number | null): number {
  if (!price || price <= 0) return 0;
  switch (rule.kind) {
    case "none":
      return 0;
    case "fixed":
      return Math.max(0, Math.min(Math.round(rule.amount), price));
    case "percent":
      return Math.max(0, Math.min(Math.round((price * rule.percent) / 100), price));
  }
}

/**
 * The deposit a booking must leave: the treatment's own, or for a patient flagged for repeated no-shows at least
 * REPEAT_NO_SHOW_DEPOSIT_PERCENT of the price.
 */
export function requiredDeposit(input: {
  rule: DepositRule;
  price: number | null;
  patientMustLeaveDeposit: boolean;
}): number {
  const own = depositAmount(input.rule, input.price);
  if (!input.patientMustLeaveDeposit) return own;
  return Math.max(
    own,
    depositAmount({ kind: "percent", percent: REPEAT_NO_SHOW_DEPOSIT_PERCENT }, input.price),
  );
}

/** Validates an admin's deposit rule; a Spanish reason when it cannot be stored. */
export function depositRuleProblem(rule: DepositRule): string | null {
  if (
    rule.kind === "fixed" &&
    (!Number.isInteger(rule.amount) || rule.amount < 1 || rule.amount > 10_000_000)
  ) {
    return "El abono fijo debe ser un monto en pesos entre $1 y $10.000.000.";
  }
  if (
    rule.kind === "percent" &&
    (!Number.isInteger(rule.percent) || rule.percent < 1 || rule.percent > 100)
  ) {
    return "El porcentaje del abono debe ser un número entero entre 1 y 100.";
  }
  return null;
}

export function holdExpiresAt(now: Date): Date {
  return new Date(now.getTime() + PAYMENT_HOLD_MINUTES * MINUTE_MS);
}

export function formExpiresAt(now: Date): Date {
  return new Date(now.getTime() + WEBPAY_FORM_MINUTES * MINUTE_MS);
}

/**
 * Whether a held booking is released now: its hold is over and no attempt may still come back paid (an attempt
 * whose form is still open, plus its grace, could be approved at the last second).
 */
export function holdReleaseDecision(input: {
  holdExpiresAt: Date;
  /** The latest form deadline among the booking's attempts still in "created", if any. */
  openAttemptFormExpiresAt: Date | null;
  now: Date;
}): boolean {
  if (input.now.getTime() < input.holdExpiresAt.getTime()) return false;
  if (!input.openAttemptFormExpiresAt) return true;
  return (
    input.now.getTime() >= input.openAttemptFormExpiresAt.getTime() + WEBPAY_SETTLE_GRACE_MINUTES * MINUTE_MS
  );
}

/** What the reconciliation does with an attempt still in "created". */
export type ReconciliationStep = "wait" | "settle" | "expire";

/**
 * - No Webpay token after two minutes: the creation never finished (an error, a crash), nobody can pay it: expire.
 * - The payer came back, or the form's time is over: settle (commit, and ask the status when the commit is refused).
 * - Otherwise the payer may still be on the form: wait.
 * A commit another instance claimed less than COMMIT_CLAIM_SECONDS ago is waited for.
 */
export function reconciliationStep(input: {
  hasToken: boolean;
  createdAt: Date;
  returnedAt: Date | null;
  formExpiresAt: Date;
  commitClaimedAt: Date | null;
  now: Date;
}): ReconciliationStep {
  const now = input.now.getTime();
  if (input.commitClaimedAt && now - input.commitClaimedAt.getTime() < COMMIT_CLAIM_SECONDS * 1000)
    return "wait";
  if (!input.hasToken) return now - input.createdAt.getTime() >= 2 * MINUTE_MS ? "expire" : "wait";
  if (input.returnedAt) return "settle";
  return now >= input.formExpiresAt.getTime() + WEBPAY_SETTLE_GRACE_MINUTES * MINUTE_MS ? "settle" : "wait";
}

/** What happened to an attempt, as read from Webpay's commit or status answer. */
export type PaymentOutcome = "authorized" | "rejected" | "aborted" | "expired";

/**
 * Webpay's transaction status (and response code) as our outcome, or null while it is still open:
 * AUTHORIZED with code 0 (or none: a status answer without one) is paid; FAILED (or AUTHORIZED with another code) is a rejection; INITIALIZED after the form's
 * time, and REVERSED when we never refunded (Webpay reverses what is not committed in time), expired.
 * NULLIFIED / PARTIALLY_NULLIFIED / CAPTURED: the money went through; refunds are ours to record.
 */
export function outcomeOfWebpayStatus(
  status: string,
  responseCode: number | null,
  formOver: boolean,
): PaymentOutcome | null {
  switch (status) {
    case "AUTHORIZED":
    case "CAPTURED":
    case "NULLIFIED":
    case "PARTIALLY_NULLIFIED":
      return responseCode === 0 || responseCode === null ? "authorized" : "rejected";
    case "FAILED":
      return "rejected";
    case "REVERSED":
      return "expired";
    case "INITIALIZED":
      return formOver ? "expired" : null;
    default:
      return null;
  }
}

export type PaymentEvent = { type: PaymentOutcome } | { type: "refund"; amount: number };

/** The state machine of an attempt. Anything not listed is refused (a second commit, a refund of nothing). */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  created: ["authorized", "rejected", "aborted", "expired"],
  authorized: ["refunded", "partially_refunded"],
  partially_refunded: ["refunded", "partially_refunded"],
  rejected: [],
  aborted: [],
  expired: [],
  refunded: [],
};

export type Transition =
  { ok: true; status: PaymentStatus; refundedAmount: number } | { ok: false; reason: string };

export function paymentTransition(
  current: { status: PaymentStatus; amount: number; refundedAmount: number },
  event: PaymentEvent,
): Transition {
  if (event.type !== "refund") {
    return PAYMENT_TRANSITIONS[current.status].includes(event.type)
      ? { ok: true, status: event.type, refundedAmount: current.refundedAmount }
      : { ok: false, reason: "Este pago ya fue procesado." };
  }
  const refund = refundDecision({
    paid: current.status === "authorized" || current.status === "partially_refunded" ? current.amount : 0,
    refunded: current.refundedAmount,
    pending: 0,
    requested: event.amount,
  });
  if (!refund.allowed) return { ok: false, reason: refund.reason };
  const refundedAmount = current.refundedAmount + event.amount;
  return {
    ok: true,
    status: refundedAmount === current.amount ? "refunded" : "partially_refunded",
    refundedAmount,
  };
}

/** A refund of `requested` pesos: whole, positive, and no more than what was paid minus what is refunded or pending. */
export function refundDecision(input: {
  paid: number;
  refunded: number;
  pending: number;
  requested: number;
}): { allowed: true } | { allowed: false; reason: string } {
  if (input.paid <= 0) return { allowed: false, reason: "Solo se puede reembolsar un pago aprobado." };
  if (!Number.isInteger(input.requested) || input.requested < 1) {
    return {
      allowed: false,
      reason: "El monto a reembolsar debe ser un número entero de pesos mayor que cero.",
    };
  }
  const available = input.paid - input.refunded - input.pending;
  if (input.requested > available) {
    return {
      allowed: false,
      reason:
        available > 0
          ? `El reembolso no puede superar lo pagado y aún no reembolsado (${formatCLP(available)}).`
          : "Este pago ya fue reembolsado por completo.",
    };
  }
  return { allowed: true };
}

/**
 * What a cancellation does with the money: in time, the deposit goes back whole; late, the fee becomes a charge,
 * the deposit pays it first, what is left of the fee is owed and what is left of the deposit goes back.
 */
export function cancellationSettlement(input: { late: boolean; fee: number; depositPaid: number }): {
  fee: number;
  depositApplied: number;
  feeDue: number;
  depositRefund: number;
} {
  const fee = input.late ? Math.max(0, Math.round(input.fee)) : 0;
  const depositApplied = Math.min(input.depositPaid, fee);
  return {
    fee,
    depositApplied,
    feeDue: fee - depositApplied,
    depositRefund: input.depositPaid - depositApplied,
  };
}

/**
 * The price a late-cancellation fee is counted on: the one agreed at booking (what the patient was shown), not a
 * price the clinic set later; the catalogue's for bookings made before prices were recorded.
 */
export function feeBasePrice(agreedPrice: number | null, currentPrice: number | null): number | null {
  return agreedPrice ?? currentPrice;
}

/**
 * A deposit that was authorized for a booking: confirm it while the booking still waits for it; a booking released
 * meanwhile (its hold ran out) is booked again if its slot is still free; anything else (cancelled, or already paid
 * by another attempt, as with two tabs) is refunded whole.
 */
export function authorizedDepositOutcome(input: {
  appointmentStatus: string | null;
  slotStillFree: boolean;
}): "confirm" | "rebook" | "refund" {
  if (input.appointmentStatus === "pending_payment") return "confirm";
  if (input.appointmentStatus === "payment_failed") return input.slotStillFree ? "rebook" : "refund";
  return "refund";
}

export const PESO_AMOUNT_MESSAGE = "Ingresa un monto en pesos, sin decimales, mayor que cero.";

/** A payment towards a budget's balance: whole pesos, at least $1 and no more than what is owed. */
export function balancePaymentDecision(input: {
  balance: number;
  requested: number;
}): { allowed: true } | { allowed: false; reason: string } {
  if (input.balance <= 0) return { allowed: false, reason: "Este presupuesto no tiene saldo pendiente." };
  if (!Number.isInteger(input.requested) || input.requested < 1) {
    return { allowed: false, reason: PESO_AMOUNT_MESSAGE };
  }
  if (input.requested > input.balance) {
    return {
      allowed: false,
      reason: `El monto no puede superar el saldo pendiente del presupuesto (${formatCLP(input.balance)}).`,
    };
  }
  return { allowed: true };
}

/**
 * How long a balance charge with no attempt yet holds its amount: its first attempt is written right after it (ADR
 * 036), so only a crash in between leaves one without, and that one stops counting after this.
 */
export const BALANCE_START_MINUTES = 2;

/**
 * Whether an open balance charge still holds part of its budget's balance: while one of its attempts may still come
 * back paid (status "created"), or in the moment between the charge and its first attempt. One whose attempts all
 * failed holds nothing: the patient's next payment of that budget replaces it.
 */
export function balanceChargeHolds(input: {
  attempts: number;
  openAttempts: number;
  createdAt: Date;
  now: Date;
}): boolean {
  if (input.openAttempts > 0) return true;
  if (input.attempts > 0) return false;
  return input.now.getTime() - input.createdAt.getTime() < BALANCE_START_MINUTES * MINUTE_MS;
}

/**
 * What a Dentalink budget leaves to pay online now: the balance Dentalink reports, less what the patient paid online
 * that staff have not yet recorded at Dentalink (its API takes no payments, so Dentalink's balance does not show it)
 * and less what is being paid right now. Never below 0.
 */
export function balanceLeftToPay(input: {
  balance: number;
  paidNotRegistered: number;
  inProgress: number;
}): number {
  return Math.max(0, input.balance - input.paidNotRegistered - input.inProgress);
}

/**
 * A peso amount as a patient types it in es-CL: "15000", "15.000" or "$ 15.000" (dots only as thousands
 * separators). Null for anything else: decimals ("15.000,50", "150.5"), signs, letters, more than 10 digits.
 */
export function parsePesoAmount(input: string): number | null {
  const written = input.trim().replace(/^\$\s*/, "");
  if (!/^(\d{1,10}|\d{1,3}(\.\d{3}){1,3})$/.test(written)) return null;
  return Number(written.replace(/\./g, ""));
}

/** What is still owed on a charge: its amount less the credit applied and what was paid online. */
export function chargeDue(
  charge: { amount: number; creditedAmount: number; status: ChargeStatus },
  paidOnline: number,
) {
  if (charge.status !== "open") return 0;
  return Math.max(0, charge.amount - charge.creditedAmount - paidOnline);
}

/**
 * A buy order for one attempt: "RC", the time in base 36 and random base-36 characters, at most 26 characters of
 * letters and digits (Webpay's limit, ADR 036). Unique by the random part and the database's unique index.
 */
export function buyOrderOf(timeMs: number, random: string): string {
  const cleaned = random.toLowerCase().replace(/[^0-9a-z]/g, "");
  return `RC${Math.trunc(Math.abs(timeMs)).toString(36)}${cleaned}`
    .slice(0, BUY_ORDER_MAX_LENGTH)
    .toUpperCase();
}
