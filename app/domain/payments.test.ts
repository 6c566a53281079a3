import { describe, expect, it } from "vitest";
import {
  BUY_ORDER_MAX_LENGTH,
  COMMIT_CLAIM_SECONDS,
  PAYMENT_HOLD_MINUTES,
  PAYMENT_TRANSITIONS,
  REPEAT_NO_SHOW_DEPOSIT_PERCENT,
  WEBPAY_FORM_MINUTES,
  WEBPAY_SETTLE_GRACE_MINUTES,
  BALANCE_START_MINUTES,
  authorizedDepositOutcome,
  balanceChargeHolds,
  balanceLeftToPay,
  balancePaymentDecision,
  buyOrderOf,
  cancellationSettlement,
  chargeDue,
  depositAmount,
  depositRuleProblem,
  feeBasePrice,
  formExpiresAt,
  holdExpiresAt,
  holdReleaseDecision,
  outcomeOfWebpayStatus,
  paymentStatuses,
  parsePesoAmount,
  paymentTransition,
  reconciliationStep,
  refundDecision,
  requiredDeposit,
  type ChargeStatus,
  type DepositRule,
  type PaymentOutcome,
  type PaymentStatus,
} from "./payments";
import { appointmentStatuses } from "./appointment-status";
import { formatCLP } from "./format";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const t0 = new Date("2026-06-01T12:00:00Z");
const after = (ms: number, from: Date = t0) => new Date(from.getTime() + ms);

const none: DepositRule = { kind: "none" };
const fixed = (amount: number): DepositRule => ({ kind: "fixed", amount });
const percent = (value: number): DepositRule => ({ kind: "percent", percent: value });

// outcomeOfWebpayStatus rows: status, response code, the outcome with the form open, with the form over.
type Row = [
  status: string,
  code: number | null,
  formOpen: PaymentOutcome | null,
  formOver: PaymentOutcome | null,
];
const paidStatus = (status: string): Row[] => [
  [status, 0, "authorized", "authorized"],
  [status, null, "authorized", "authorized"],
  [status, -1, "rejected", "rejected"],
  [status, -96, "rejected", "rejected"],
  [status, 1, "rejected", "rejected"],
];
const sameForEveryCode = (status: string, formOpen: PaymentOutcome | null, formOver: PaymentOutcome | null) =>
  [0, null, -1, -96, 1].map((code): Row => [status, code, formOpen, formOver]);
const refused = (reason: string) => ({ allowed: false, reason });

describe("the constants the rules are written against (ADR 036)", () => {
  it("holds a slot 15 minutes, Webpay's form 10 minutes plus 1 of grace, a commit claim 15 seconds", () => {
    expect([
      PAYMENT_HOLD_MINUTES,
      WEBPAY_FORM_MINUTES,
      WEBPAY_SETTLE_GRACE_MINUTES,
      COMMIT_CLAIM_SECONDS,
      REPEAT_NO_SHOW_DEPOSIT_PERCENT,
      BUY_ORDER_MAX_LENGTH,
    ]).toEqual([15, 10, 1, 15, 30, 26]);
  });

  it("counts the hold and the form from now", () => {
    expect(holdExpiresAt(t0)).toEqual(new Date("2026-06-01T12:15:00Z"));
    expect(formExpiresAt(t0)).toEqual(new Date("2026-06-01T12:10:00Z"));
  });
});

describe("depositAmount", () => {
  it.each([
    ["no deposit", none, 50_000, 0],
    ["a fixed amount", fixed(20_000), 50_000, 20_000],
    ["a fixed amount equal to the price", fixed(50_000), 50_000, 50_000],
    ["a fixed amount above the price, capped at the price", fixed(80_000), 50_000, 50_000],
    ["a fixed amount with cents, rounded", fixed(20_000.6), 50_000, 20_001],
    ["a negative fixed amount, never below zero", fixed(-1), 50_000, 0],
    ["50 %", percent(50), 50_000, 25_000],
    ["33 % of $12.345 (4.073,85), rounded to whole pesos", percent(33), 12_345, 4_074],
    ["30 % of $12.345 (3.703,5), half rounded up", percent(30), 12_345, 3_704],
    ["1 % of $149 (1,49), rounded down", percent(1), 149, 1],
    ["1 % of $49 (0,49), rounded to nothing", percent(1), 49, 0],
    ["100 %", percent(100), 12_345, 12_345],
    ["above 100 %, capped at the price", percent(150), 12_345, 12_345],
    ["a negative percentage, never below zero", percent(-10), 12_345, 0],
    ["a fixed amount on no price", fixed(20_000), null, 0],
    ["a percentage on no price", percent(50), null, 0],
    ["a fixed amount on a free treatment", fixed(20_000), 0, 0],
    ["a percentage on a free treatment", percent(50), 0, 0],
    ["a fixed amount on a negative price", fixed(20_000), -5_000, 0],
    ["no deposit on no price", none, null, 0],
  ] as const)("%s: %j on %j → %j", (_name, rule, price, expected) => {
    expect(depositAmount(rule, price)).toBe(expected);
  });

  it("always answers whole pesos for every percentage of an odd price", () => {
    for (let value = 1; value <= 100; value++) {
      const amount = depositAmount(percent(value), 12_345);
      expect(Number.isInteger(amount)).toBe(true);
      expect(amount).toBe(Math.round((12_345 * value) / 100));
    }
  });
});

describe("requiredDeposit", () => {
  it.each([
    ["no rule, no flag", none, 100_000, false, 0],
    ["no rule, flagged: 30 %", none, 100_000, true, 30_000],
    ["no rule, flagged, odd price: 30 % rounded", none, 12_345, true, 3_704],
    ["own 20 %, no flag", percent(20), 100_000, false, 20_000],
    ["own 20 %, flagged: raised to 30 %", percent(20), 100_000, true, 30_000],
    ["own 30 %, flagged: unchanged", percent(30), 100_000, true, 30_000],
    ["own 50 %, flagged: never lowered", percent(50), 100_000, true, 50_000],
    ["own fixed $10.000, flagged: raised to 30 %", fixed(10_000), 100_000, true, 30_000],
    ["own fixed $40.000, flagged: never lowered", fixed(40_000), 100_000, true, 40_000],
    ["own fixed above the price, flagged: the price", fixed(500_000), 100_000, true, 100_000],
    ["flagged, no price: nothing to count on", none, null, true, 0],
    ["flagged, free treatment", none, 0, true, 0],
  ] as const)("%s → %j", (_name, rule, price, patientMustLeaveDeposit, expected) => {
    expect(requiredDeposit({ rule, price, patientMustLeaveDeposit })).toBe(expected);
  });
});

describe("depositRuleProblem", () => {
  const fixedProblem = "El abono fijo debe ser un monto en pesos entre $1 y $10.000.000.";
  const percentProblem = "El porcentaje del abono debe ser un número entero entre 1 y 100.";
  it.each([
    [none, null],
    [fixed(1), null],
    [fixed(25_000), null],
    [fixed(10_000_000), null],
    [fixed(0), fixedProblem],
    [fixed(-1), fixedProblem],
    [fixed(10_000_001), fixedProblem],
    [fixed(1_500.5), fixedProblem],
    [fixed(Number.NaN), fixedProblem],
    [fixed(Number.POSITIVE_INFINITY), fixedProblem],
    [percent(1), null],
    [percent(30), null],
    [percent(100), null],
    [percent(0), percentProblem],
    [percent(-5), percentProblem],
    [percent(101), percentProblem],
    [percent(12.5), percentProblem],
    [percent(Number.NaN), percentProblem],
  ] as const)("%j → %j", (rule, expected) => {
    expect(depositRuleProblem(rule)).toBe(expected);
  });
});

describe("holdReleaseDecision", () => {
  const holdEnd = after(PAYMENT_HOLD_MINUTES * MINUTE);
  const grace = WEBPAY_SETTLE_GRACE_MINUTES * MINUTE;
  // An attempt started at minute 13 of the hold: its form closes at minute 23, released from minute 24.
  const lateForm = after(8 * MINUTE, holdEnd);
  // An attempt started at minute 2: its form closed at minute 12, its grace ended at minute 13.
  const earlyForm = after(-3 * MINUTE, holdEnd);
  it.each([
    ["before the hold ends, no attempt", null, after(-1, holdEnd), false],
    ["before the hold ends, an attempt long over", earlyForm, after(-1, holdEnd), false],
    ["at the hold's end, no attempt", null, holdEnd, true],
    ["after the hold, no attempt", null, after(MINUTE, holdEnd), true],
    ["after the hold, an attempt whose form is still open", lateForm, holdEnd, false],
    ["after the hold, at the form's deadline", lateForm, lateForm, false],
    ["after the hold, within the form's grace", lateForm, after(grace - 1, lateForm), false],
    ["after the hold, when the form's grace ends", lateForm, after(grace, lateForm), true],
    ["after the hold, an attempt whose grace ended before the hold", earlyForm, holdEnd, true],
  ] as const)("%s → %j", (_name, openAttemptFormExpiresAt, now, expected) => {
    expect(holdReleaseDecision({ holdExpiresAt: holdEnd, openAttemptFormExpiresAt, now })).toBe(expected);
  });
});

describe("reconciliationStep", () => {
  const formEnd = after(WEBPAY_FORM_MINUTES * MINUTE);
  const settleFrom = after(WEBPAY_SETTLE_GRACE_MINUTES * MINUTE, formEnd);
  const step = (
    over: Partial<{
      hasToken: boolean;
      returnedAt: Date | null;
      commitClaimedAt: Date | null;
      now: Date;
    }>,
  ) =>
    reconciliationStep({
      hasToken: true,
      createdAt: t0,
      returnedAt: null,
      formExpiresAt: formEnd,
      commitClaimedAt: null,
      now: t0,
      ...over,
    });

  it.each([
    ["a fresh claim (14 s) is waited for, even after a return", { returnedAt: after(MINUTE) }, 14, "wait"],
    ["a fresh claim is waited for, even with no token for long", { hasToken: false }, 14, "wait"],
    [
      "a claim of exactly 15 s is abandoned: the return is settled",
      { returnedAt: after(MINUTE) },
      15,
      "settle",
    ],
    ["a stale claim is ignored: no token for long, expire", { hasToken: false }, 600, "expire"],
    ["a claim dated a little ahead (clock skew) is waited for", { returnedAt: after(MINUTE) }, -5, "wait"],
  ] as const)("%s", (_name, over, claimAgeSeconds, expected) => {
    const now = after(20 * MINUTE);
    expect(step({ ...over, now, commitClaimedAt: after(-claimAgeSeconds * SECOND, now) })).toBe(expected);
  });

  it.each([
    ["no token, just created", { hasToken: false, now: t0 }, "wait"],
    ["no token, 1 min 59.999 s old", { hasToken: false, now: after(2 * MINUTE - 1) }, "wait"],
    ["no token, 2 min old", { hasToken: false, now: after(2 * MINUTE) }, "expire"],
    ["no token, an hour old", { hasToken: false, now: after(60 * MINUTE) }, "expire"],
    ["no token, even if marked returned, young", { hasToken: false, returnedAt: t0, now: t0 }, "wait"],
    ["returned at once", { returnedAt: after(SECOND), now: after(SECOND) }, "settle"],
    ["returned, later", { returnedAt: after(3 * MINUTE), now: after(30 * MINUTE) }, "settle"],
    ["nobody returned, the form is open", { now: after(5 * MINUTE) }, "wait"],
    ["nobody returned, at the form's deadline", { now: formEnd }, "wait"],
    ["nobody returned, within the grace", { now: after(-1, settleFrom) }, "wait"],
    ["nobody returned, the form's time and grace are over", { now: settleFrom }, "settle"],
    ["nobody returned, long after", { now: after(6 * 60 * MINUTE) }, "settle"],
  ] as const)("%s → %s", (_name, over, expected) => {
    expect(step(over)).toBe(expected);
  });
});

describe("outcomeOfWebpayStatus", () => {
  const rows: Row[] = [
    ...paidStatus("AUTHORIZED"),
    ...paidStatus("CAPTURED"),
    ...paidStatus("NULLIFIED"),
    ...paidStatus("PARTIALLY_NULLIFIED"),
    ...sameForEveryCode("FAILED", "rejected", "rejected"),
    ...sameForEveryCode("REVERSED", "expired", "expired"),
    ...sameForEveryCode("INITIALIZED", null, "expired"),
    ...sameForEveryCode("SOMETHING_NEW", null, null),
    ...sameForEveryCode("authorized", null, null),
    ...sameForEveryCode("", null, null),
  ];
  it.each(rows)("%s, code %j: form open → %j, form over → %j", (status, code, formOpen, formOver) => {
    expect(outcomeOfWebpayStatus(status, code, false)).toBe(formOpen);
    expect(outcomeOfWebpayStatus(status, code, true)).toBe(formOver);
  });
});

describe("paymentTransition: outcomes", () => {
  const outcomes: PaymentOutcome[] = ["authorized", "rejected", "aborted", "expired"];
  const allowed: Record<PaymentStatus, PaymentOutcome[]> = {
    created: ["authorized", "rejected", "aborted", "expired"],
    authorized: [],
    rejected: [],
    aborted: [],
    expired: [],
    refunded: [],
    partially_refunded: [],
  };
  const pairs = paymentStatuses.flatMap((from) => outcomes.map((to) => [from, to] as const));

  it("covers every status", () => {
    expect(Object.keys(allowed).toSorted()).toEqual(paymentStatuses.toSorted());
    expect(Object.keys(PAYMENT_TRANSITIONS).toSorted()).toEqual(paymentStatuses.toSorted());
  });

  it.each(pairs)("%s + %s", (from, to) => {
    const refundedAmount = from === "partially_refunded" ? 4_000 : from === "refunded" ? 10_000 : 0;
    const result = paymentTransition({ status: from, amount: 10_000, refundedAmount }, { type: to });
    expect(result).toEqual(
      allowed[from].includes(to)
        ? { ok: true, status: to, refundedAmount }
        : { ok: false, reason: "Este pago ya fue procesado." },
    );
  });

  it("refuses a second commit of the same attempt", () => {
    const first = paymentTransition(
      { status: "created", amount: 25_000, refundedAmount: 0 },
      { type: "authorized" },
    );
    expect(first).toEqual({ ok: true, status: "authorized", refundedAmount: 0 });
    if (!first.ok) throw new Error("unreachable");
    expect(
      paymentTransition({ status: first.status, amount: 25_000, refundedAmount: 0 }, { type: "authorized" }),
    ).toEqual({ ok: false, reason: "Este pago ya fue procesado." });
  });

  it("lists exactly these moves", () => {
    expect(PAYMENT_TRANSITIONS).toEqual({
      created: ["authorized", "rejected", "aborted", "expired"],
      authorized: ["refunded", "partially_refunded"],
      partially_refunded: ["refunded", "partially_refunded"],
      rejected: [],
      aborted: [],
      expired: [],
      refunded: [],
    });
  });
});

describe("paymentTransition: refunds", () => {
  const notApproved = "Solo se puede reembolsar un pago aprobado.";
  const notWhole = "El monto a reembolsar debe ser un número entero de pesos mayor que cero.";
  it.each([
    [
      "the whole of an authorized payment",
      "authorized",
      0,
      10_000,
      { ok: true, status: "refunded", refundedAmount: 10_000 },
    ],
    [
      "part of an authorized payment",
      "authorized",
      0,
      4_000,
      { ok: true, status: "partially_refunded", refundedAmount: 4_000 },
    ],
    ["$1", "authorized", 0, 1, { ok: true, status: "partially_refunded", refundedAmount: 1 }],
    [
      "the rest of a partial refund",
      "partially_refunded",
      4_000,
      6_000,
      { ok: true, status: "refunded", refundedAmount: 10_000 },
    ],
    [
      "more, short of the rest",
      "partially_refunded",
      4_000,
      5_999,
      { ok: true, status: "partially_refunded", refundedAmount: 9_999 },
    ],
    [
      "more than paid",
      "authorized",
      0,
      10_001,
      { ok: false, reason: "El reembolso no puede superar lo pagado y aún no reembolsado ($10.000)." },
    ],
    [
      "more than what is left",
      "partially_refunded",
      4_000,
      6_001,
      { ok: false, reason: "El reembolso no puede superar lo pagado y aún no reembolsado ($6.000)." },
    ],
    ["anything of a refunded payment", "refunded", 10_000, 1, { ok: false, reason: notApproved }],
    ["a rejected payment", "rejected", 0, 10_000, { ok: false, reason: notApproved }],
    ["an aborted payment", "aborted", 0, 10_000, { ok: false, reason: notApproved }],
    ["an expired payment", "expired", 0, 10_000, { ok: false, reason: notApproved }],
    ["a payment not settled yet", "created", 0, 10_000, { ok: false, reason: notApproved }],
    ["nothing", "authorized", 0, 0, { ok: false, reason: notWhole }],
    ["a negative amount", "authorized", 0, -100, { ok: false, reason: notWhole }],
    ["a fraction of a peso", "authorized", 0, 100.5, { ok: false, reason: notWhole }],
  ] as const)("%s", (_name, status, refundedAmount, amount, expected) => {
    expect(paymentTransition({ status, amount: 10_000, refundedAmount }, { type: "refund", amount })).toEqual(
      expected,
    );
  });

  it("adds up several partial refunds until the payment is refunded in full, then refuses more", () => {
    let current = { status: "authorized" as PaymentStatus, amount: 12_345, refundedAmount: 0 };
    const seen: [PaymentStatus, number][] = [];
    for (const amount of [2_000, 345, 10_000]) {
      const result = paymentTransition(current, { type: "refund", amount });
      if (!result.ok) throw new Error(result.reason);
      current = { ...current, status: result.status, refundedAmount: result.refundedAmount };
      seen.push([result.status, result.refundedAmount]);
    }
    expect(seen).toEqual([
      ["partially_refunded", 2_000],
      ["partially_refunded", 2_345],
      ["refunded", 12_345],
    ]);
    expect(paymentTransition(current, { type: "refund", amount: 1 })).toEqual({
      ok: false,
      reason: notApproved,
    });
  });
});

describe("refundDecision", () => {
  const allowed = { allowed: true };
  const tooMuch = (available: number) =>
    refused(`El reembolso no puede superar lo pagado y aún no reembolsado (${formatCLP(available)}).`);
  const notWhole = refused("El monto a reembolsar debe ser un número entero de pesos mayor que cero.");
  const done = refused("Este pago ya fue reembolsado por completo.");
  it.each([
    ["all of it", 10_000, 0, 0, 10_000, allowed],
    ["part of it", 10_000, 0, 0, 1, allowed],
    ["the rest after a refund", 10_000, 3_000, 0, 7_000, allowed],
    ["the rest after a refund and a pending one", 10_000, 3_000, 2_000, 5_000, allowed],
    ["more than the rest, counting a pending refund", 10_000, 3_000, 2_000, 5_001, tooMuch(5_000)],
    ["all of it while a refund is pending", 10_000, 0, 4_000, 10_000, tooMuch(6_000)],
    ["more than paid", 10_000, 0, 0, 10_001, tooMuch(10_000)],
    ["anything once refunded in full", 10_000, 10_000, 0, 1, done],
    ["anything while the whole is pending", 10_000, 0, 10_000, 1, done],
    ["anything once refunded and pending add up", 10_000, 6_000, 4_000, 1, done],
    ["a payment with nothing paid", 0, 0, 0, 1, refused("Solo se puede reembolsar un pago aprobado.")],
    ["nothing", 10_000, 0, 0, 0, notWhole],
    ["a negative amount", 10_000, 0, 0, -1, notWhole],
    ["a fraction of a peso", 10_000, 0, 0, 99.5, notWhole],
    ["not a number", 10_000, 0, 0, Number.NaN, notWhole],
    ["an infinite amount", 10_000, 0, 0, Number.POSITIVE_INFINITY, notWhole],
  ] as const)("%s", (_name, paid, refunded, pending, requested, expected) => {
    expect(refundDecision({ paid, refunded, pending, requested })).toEqual(expected);
  });
});

describe("cancellationSettlement", () => {
  it.each([
    ["in time, with a deposit: all of it back", false, 0, 30_000, [0, 0, 0, 30_000]],
    ["in time, a fee handed in anyway is not charged", false, 60_000, 30_000, [0, 0, 0, 30_000]],
    ["in time, no deposit: nothing", false, 0, 0, [0, 0, 0, 0]],
    [
      "late, deposit larger than the fee: the fee from it, the rest back",
      true,
      60_000,
      100_000,
      [60_000, 60_000, 0, 40_000],
    ],
    ["late, deposit equal to the fee: all of it applied", true, 60_000, 60_000, [60_000, 60_000, 0, 0]],
    [
      "late, deposit smaller than the fee: the rest of the fee owed",
      true,
      60_000,
      20_000,
      [60_000, 20_000, 40_000, 0],
    ],
    ["late, no deposit: the whole fee owed", true, 60_000, 0, [60_000, 0, 60_000, 0]],
    ["late, no price (no fee): the deposit back", true, 0, 25_000, [0, 0, 0, 25_000]],
    ["late, half of $12.345 rounded up", true, 6_172.5, 0, [6_173, 0, 6_173, 0]],
    ["late, half of $12.345 rounded up, from a deposit", true, 6_172.5, 10_000, [6_173, 6_173, 0, 3_827]],
    ["late, a fee with cents rounded down", true, 6_172.4, 6_172, [6_172, 6_172, 0, 0]],
    ["late, a negative fee is no fee", true, -500, 10_000, [0, 0, 0, 10_000]],
  ] as const)("%s", (_name, late, fee, depositPaid, [expectedFee, depositApplied, feeDue, depositRefund]) => {
    const result = cancellationSettlement({ late, fee, depositPaid });
    expect(result).toEqual({ fee: expectedFee, depositApplied, feeDue, depositRefund });
    // The money adds up: the deposit is split between the fee and the refund, the fee between deposit and debt.
    expect(result.depositApplied + result.depositRefund).toBe(depositPaid);
    expect(result.depositApplied + result.feeDue).toBe(result.fee);
  });
});

describe("feeBasePrice", () => {
  it.each([
    ["the price agreed at booking wins over a later raise", 100_000, 150_000, 100_000],
    ["the price agreed at booking wins over a later cut", 100_000, 80_000, 100_000],
    ["an agreed free treatment stays free", 0, 50_000, 0],
    ["a booking made before prices were recorded: the catalogue's", null, 120_000, 120_000],
    ["no price anywhere", null, null, null],
    ["an agreed price for a treatment no longer priced", 90_000, null, 90_000],
  ] as const)("%s", (_name, agreed, current, expected) => {
    expect(feeBasePrice(agreed, current)).toBe(expected);
  });
});

describe("authorizedDepositOutcome", () => {
  const expected: Record<string, ["confirm" | "rebook" | "refund", "confirm" | "rebook" | "refund"]> = {
    // [slot still free, slot taken]
    pending_payment: ["confirm", "confirm"],
    payment_failed: ["rebook", "refund"],
    scheduled: ["refund", "refund"],
    confirmed: ["refund", "refund"],
    in_progress: ["refund", "refund"],
    completed: ["refund", "refund"],
    cancelled: ["refund", "refund"],
    no_show: ["refund", "refund"],
  };

  it("covers every appointment status", () => {
    expect(Object.keys(expected).toSorted()).toEqual(appointmentStatuses.toSorted());
  });

  it.each(
    [...appointmentStatuses, "something_new", null].flatMap(
      (status) =>
        [
          [status, true],
          [status, false],
        ] as const,
    ),
  )("%j, slot still free %j", (status, slotStillFree) => {
    const [free, taken] = status && expected[status] ? expected[status] : ["refund", "refund"];
    expect(authorizedDepositOutcome({ appointmentStatus: status, slotStillFree })).toBe(
      slotStillFree ? free : taken,
    );
  });
});

describe("balancePaymentDecision", () => {
  const noBalance = { allowed: false, reason: "Este presupuesto no tiene saldo pendiente." };
  const notWhole = { allowed: false, reason: "Ingresa un monto en pesos, sin decimales, mayor que cero." };
  const tooMuch = {
    allowed: false,
    reason: "El monto no puede superar el saldo pendiente del presupuesto ($150.000).",
  };
  it.each([
    ["the whole balance", 150_000, 150_000, { allowed: true }],
    ["part of it", 150_000, 50_000, { allowed: true }],
    ["$1", 150_000, 1, { allowed: true }],
    ["more than owed", 150_000, 150_001, tooMuch],
    ["nothing owed", 0, 1, noBalance],
    ["a negative balance (paid in excess)", -10, 1, noBalance],
    ["nothing", 150_000, 0, notWhole],
    ["a negative amount", 150_000, -5_000, notWhole],
    ["cents", 150_000, 10_000.5, notWhole],
    ["not a number", 150_000, Number.NaN, notWhole],
  ] as const)("%s", (_name, balance, requested, expected) => {
    expect(balancePaymentDecision({ balance, requested })).toEqual(expected);
  });
});

describe("chargeDue", () => {
  it.each([
    ["an open charge, nothing paid", 60_000, 0, "open", 0, 60_000],
    ["an open charge, the deposit credited", 60_000, 20_000, "open", 0, 40_000],
    ["an open charge, part paid online", 60_000, 0, "open", 15_000, 45_000],
    ["an open charge, credit and online", 60_000, 20_000, "open", 15_000, 25_000],
    ["an open charge, covered exactly", 60_000, 20_000, "open", 40_000, 0],
    ["an open charge, overpaid: never below zero", 60_000, 20_000, "open", 50_000, 0],
    ["a paid charge", 60_000, 0, "paid", 0, 0],
    ["a paid charge, whatever was paid online", 60_000, 0, "paid", 10_000, 0],
    ["a waived charge", 60_000, 0, "waived", 0, 0],
    ["a waived charge with credit", 60_000, 20_000, "waived", 0, 0],
    ["a void charge", 60_000, 0, "void", 0, 0],
  ] as const)("%s", (_name, amount, creditedAmount, status, paidOnline, expected) => {
    expect(chargeDue({ amount, creditedAmount, status: status as ChargeStatus }, paidOnline)).toBe(expected);
  });
});

describe("buyOrderOf", () => {
  const now = t0.getTime(); // 1780315200000 → "mpv5pc00" in base 36
  it.each([
    ["a hex random", now, "0a1b2c3d4e5f", "RCMPV5PC000A1B2C3D4E5F"],
    [
      "a UUID: dashes dropped, cut at 26",
      now,
      "3f2b8c1e-9d4a-4b7e-8f21-6c0d5e9a7b13",
      "RCMPV5PC003F2B8C1E9D4A4B7E",
    ],
    ["symbols dropped, letters upper-cased", now, "a_b+c/d=é!", "RCMPV5PC00ABCD"],
    ["no random at all", now, "", "RCMPV5PC00"],
    ["the epoch", 0, "abc", "RC0ABC"],
  ] as const)("%s → %s", (_name, timeMs, random, expected) => {
    expect(buyOrderOf(timeMs, random)).toBe(expected);
  });

  it("is at most 26 characters of A-Z and 0-9 and starts with RC, for any random", () => {
    const randoms = [
      "",
      "x",
      crypto.randomUUID(),
      "ñandú-ÁRBOL 123 !?",
      "a".repeat(100),
      Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64"),
    ];
    for (const timeMs of [0, 1, now, 8_640_000_000_000_000]) {
      for (const random of randoms) {
        const order = buyOrderOf(timeMs, random);
        expect(order.length).toBeLessThanOrEqual(BUY_ORDER_MAX_LENGTH);
        expect(order).toMatch(/^RC[A-Z0-9]*$/);
      }
    }
  });

  it("differs for different randoms at the same millisecond", () => {
    const orders = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const random = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
      orders.add(buyOrderOf(now, random));
    }
    expect(orders.size).toBe(2_000);
    expect(buyOrderOf(now, "aaaa")).not.toBe(buyOrderOf(now, "aaab"));
    expect(buyOrderOf(now, "1")).not.toBe(buyOrderOf(now + 1, "1"));
  });

  it("keeps the random's first 16 characters today (26 − 'RC' − 8 of time): more is cut, case is folded", () => {
    // Callers must put their randomness in the first 16 letters or digits, in one case.
    expect(buyOrderOf(now, "0123456789abcdefXYZ")).toBe(buyOrderOf(now, "0123456789abcdefQRS"));
    expect(buyOrderOf(now, "AbC")).toBe(buyOrderOf(now, "aBc"));
  });
});

describe("balanceLeftToPay", () => {
  it.each([
    ["nothing paid online", 150_000, 0, 0, 150_000],
    ["a payment staff have not recorded at Dentalink yet", 150_000, 50_000, 0, 100_000],
    ["a payment on Webpay's form right now", 150_000, 0, 30_000, 120_000],
    ["both", 150_000, 50_000, 30_000, 70_000],
    ["more taken than Dentalink owes (recorded late)", 40_000, 50_000, 0, 0],
  ])("%s", (_, balance, paidNotRegistered, inProgress, left) => {
    expect(balanceLeftToPay({ balance, paidNotRegistered, inProgress })).toBe(left);
  });
});

describe("balanceChargeHolds", () => {
  const createdAt = new Date("2026-03-02T12:00:00Z");
  const at = (minutes: number) => new Date(createdAt.getTime() + minutes * 60_000);
  it.each([
    ["an attempt on the form", 1, 1, 30, true],
    ["one open among failed ones", 3, 1, 30, true],
    ["only failed attempts", 2, 0, 0.5, false],
    ["no attempt yet, just created", 0, 0, 0.5, true],
    ["no attempt after the start window (a crash)", 0, 0, BALANCE_START_MINUTES, false],
  ])("%s", (_, attempts, openAttempts, minutes, holds) => {
    expect(balanceChargeHolds({ attempts, openAttempts, createdAt, now: at(minutes) })).toBe(holds);
  });
});

describe("parsePesoAmount", () => {
  it.each([
    ["15000", 15_000],
    ["15.000", 15_000],
    ["$15.000", 15_000],
    ["$ 1.500.000", 1_500_000],
    ["  120.000 ", 120_000],
    ["0", 0],
    ["1", 1],
  ])("reads %j", (typed, amount) => {
    expect(parsePesoAmount(typed)).toBe(amount);
  });

  it.each(["", "abc", "15.000,50", "150.5", "1.50", "15,000", "-5.000", "1e5", "15.00.000", "12345678901"])(
    "refuses %j",
    (typed) => {
      expect(parsePesoAmount(typed)).toBeNull();
    },
  );
});
