import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { chargeKinds, chargeStatuses, paymentStatuses, refundStatuses } from "~/domain/payments";
import { users } from "./accounts";
import { appointments, treatmentsCatalog } from "./appointments";
import { quotedList, timestamps } from "./columns";

/**
 * Online payments (ADR 036): what a patient owes (charges), each attempt to pay through Webpay Plus (payments, one
 * row per buy_order) and each refund. Amounts are whole Chilean pesos, computed on the server.
 */

/** Something a patient owes: a booking deposit, a late-cancellation fee, part of a Dentalink budget's balance. */
export const charges = pgTable(
  "charges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    kind: text("kind").notNull(),
    appointmentId: uuid("appointment_id").references(() => appointments.id, { onDelete: "set null" }),
    /** The Dentalink budget (tratamiento) a balance payment goes to. */
    dentalinkBudgetId: text("dentalink_budget_id"),
    /** The concept as the patient and the receipt read it ("Abono: Implante dental"). */
    concept: text("concept").notNull(),
    amount: integer("amount").notNull(),
    /** Paid by another charge's money: the deposit applied to a late-cancellation fee. */
    creditedAmount: integer("credited_amount").notNull().default(0),
    status: text("status").notNull().default("open"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    waivedAt: timestamp("waived_at", { withTimezone: true }),
    waivedBy: text("waived_by").references(() => users.id, { onDelete: "set null" }),
    waivedReason: text("waived_reason"),
    /** Balance payments: recorded at Dentalink by staff (its API takes no payments, ADR 036). */
    registeredAtDentalinkAt: timestamp("registered_at_dentalink_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index("charges_patient_idx").on(table.patientId, table.createdAt),
    index("charges_appointment_idx").on(table.appointmentId),
    check("charges_kind_values", sql`${table.kind} in (${quotedList(chargeKinds)})`),
    check("charges_status_values", sql`${table.status} in (${quotedList(chargeStatuses)})`),
    check("charges_amount_positive", sql`${table.amount} > 0`),
    check("charges_credit_range", sql`${table.creditedAmount} between 0 and ${table.amount}`),
  ],
);

/** One attempt to pay a charge through Webpay: its own buy_order, its state under a row lock. */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chargeId: uuid("charge_id")
      .notNull()
      .references(() => charges.id, { onDelete: "restrict" }),
    patientId: text("patient_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** Webpay's buy_order: unique, at most 26 characters. */
    buyOrder: text("buy_order").notNull().unique(),
    sessionId: text("session_id").notNull(),
    /** Webpay's token for this attempt, once created there. */
    token: text("token").unique(),
    formUrl: text("form_url"),
    amount: integer("amount").notNull(),
    status: text("status").notNull().default("created"),
    refundedAmount: integer("refunded_amount").notNull().default(0),
    /** When the payer came back from Webpay (or the form gave up): from then on the attempt is ours to settle. */
    returnedAt: timestamp("returned_at", { withTimezone: true }),
    /** Who is committing: a claim, so that two tabs or an instance and the reconciliation never commit together. */
    commitClaimedAt: timestamp("commit_claimed_at", { withTimezone: true }),
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /** "return" (the payer's return), "reconciliation" (the job), "hold" (released with its booking). */
    settledBy: text("settled_by"),
    responseCode: integer("response_code"),
    authorizationCode: text("authorization_code"),
    paymentTypeCode: text("payment_type_code"),
    cardLast4: text("card_last4"),
    installments: integer("installments"),
    transactionDate: timestamp("transaction_date", { withTimezone: true }),
    /** Reconciliation: how many times the job asked Webpay, when it last did, and what went wrong. */
    checks: integer("checks").notNull().default(0),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    lastError: text("last_error"),
    /** The form's deadline: after it an attempt nobody returned from is asked about and expires. */
    formExpiresAt: timestamp("form_expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [
    index("payments_patient_idx").on(table.patientId, table.createdAt),
    index("payments_charge_idx").on(table.chargeId),
    index("payments_open_idx")
      .on(table.formExpiresAt)
      .where(sql`${table.status} = 'created'`),
    check("payments_status_values", sql`${table.status} in (${quotedList(paymentStatuses)})`),
    check("payments_amount_positive", sql`${table.amount} > 0`),
    check("payments_refund_range", sql`${table.refundedAmount} between 0 and ${table.amount}`),
  ],
);

/** A refund of (part of) an authorized payment: asked of Webpay through the outbox, recorded with its outcome. */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "restrict" }),
    amount: integer("amount").notNull(),
    reason: text("reason").notNull(),
    /** The admin who asked, or null for the automatic refunds (cancelled in time, a hold lost). */
    requestedBy: text("requested_by").references(() => users.id, { onDelete: "set null" }),
    status: text("status").notNull().default("pending"),
    /** Webpay's answer: REVERSED or NULLIFIED. */
    type: text("type"),
    authorizationCode: text("authorization_code"),
    lastError: text("last_error"),
    doneAt: timestamp("done_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    index("payment_refunds_payment_idx").on(table.paymentId),
    check("payment_refunds_status_values", sql`${table.status} in (${quotedList(refundStatuses)})`),
    check("payment_refunds_amount_positive", sql`${table.amount} > 0`),
  ],
);

/** Deposit rule per treatment ("none", a fixed CLP amount, or a percentage of the price), set by an admin. */
export const treatmentDeposits = pgTable(
  "treatment_deposits",
  {
    treatmentId: integer("treatment_id")
      .primaryKey()
      .references(() => treatmentsCatalog.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    value: integer("value").notNull().default(0),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    check("treatment_deposits_kind_values", sql`${table.kind} in ('none', 'fixed', 'percent')`),
    check("treatment_deposits_value_range", sql`${table.value} >= 0`),
  ],
);

/** Patients who must leave a deposit on any treatment (repeated no-shows); written by the clinic. */
export const patientDepositFlags = pgTable("patient_deposit_flags", {
  patientId: text("patient_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  required: boolean("required").notNull().default(true),
  reason: text("reason"),
  details: jsonb("details").$type<Record<string, unknown>>(),
  ...timestamps,
});
