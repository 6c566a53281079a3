import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import {
  appointments,
  charges,
  consents,
  leads,
  paymentRefunds,
  payments,
  treatmentsCatalog,
} from "~/db/schema";
import { buyOrderOf } from "~/domain/payments";
import type { RoleName } from "~/domain/roles";
import { scoreLead } from "~/domain/lead-scoring";
import { uniqueEmail, uniquePhone } from "./clients";
import { createTestUser, type TestUser, type TestUserOptions } from "./users";

/**
 * The rows integration tests build: accounts (users.ts's `createTestUser` underneath), leads and appointments
 * inserted directly, for fixtures the public flows could not create (past dates, any status, many at once).
 */

export { createTestUser, type TestUser } from "./users";

/** A staff account marked as enrolled in two-factor, as real staff accounts are (required unless AUTH_STAFF_2FA=optional). */
export async function createStaffMember(
  roles: RoleName[],
  options: Omit<TestUserOptions, "roles"> = {},
): Promise<TestUser> {
  return createTestUser({ ...options, roles, columns: { twoFactorEnabled: true, ...options.columns } });
}

/** When the test patients agreed to WhatsApp messages. */
export const WHATSAPP_CONSENT_AT = new Date("2020-01-01T00:00:00Z");

/** A patient with a mobile phone (a fresh one unless given) who agreed to WhatsApp messages, or not. */
export async function createWhatsAppPatient(
  firstName: string,
  options: { consent?: boolean; columns?: TestUserOptions["columns"] } = {},
): Promise<TestUser> {
  const consent = options.consent ?? true;
  const user = await createTestUser({
    firstName,
    columns: {
      phone: uniquePhone(),
      whatsappOptInAt: consent ? WHATSAPP_CONSENT_AT : null,
      ...options.columns,
    },
  });
  // The ledger is what sending code asks (ADR 037); the column only mirrors it.
  if (consent) await giveWhatsAppConsent(user.id, WHATSAPP_CONSENT_AT);
  return user;
}

/** A ledger row: the account agreed to WhatsApp messages at `at` (v1 of the text, from Mi Perfil). */
export async function giveWhatsAppConsent(userId: string, at = new Date()) {
  await (
    await getDb()
  )
    .insert(consents)
    .values({ userId, purpose: "recordatorios_whatsapp", textVersion: "v1", channel: "perfil", givenAt: at });
}

/**
 * The lead form's fields as the landing page posts them: a hot web lead (implantes, inmediato, alto) with a fresh
 * phone and e-mail, unless `overrides` says otherwise. The e-mail is unique: a request whose e-mail matches an open
 * lead is merged into it (ADR 025).
 */
export function leadFormFields(overrides: Record<string, string> = {}) {
  return {
    submissionId: randomUUID(),
    name: "Ana Pérez",
    phone: uniquePhone(),
    email: uniqueEmail("ana"),
    treatment: "implantes",
    urgency: "inmediato",
    budget: "alto",
    message: "Perdí un diente hace un mes y quiero saber si soy candidata a un implante pronto.",
    consent: "on",
    source: "web",
    ...overrides,
  };
}

export type LeadRow = typeof leads.$inferSelect;
export type LeadSeed = Partial<typeof leads.$inferInsert>;

/**
 * A lead's row: a web lead with a fresh phone, created now (consent and update at its creation), answers
 * implantes / 3-meses / alto and the score, level and reasons those answers earn, unless `seed` says otherwise.
 */
function leadValues(seed: LeadSeed): typeof leads.$inferInsert {
  const answers = { treatment: "implantes", urgency: "3-meses", budget: "alto" } as const;
  const { score, level, reasons } = scoreLead({ ...answers, phone: "x", email: null, message: "" });
  const createdAt = seed.createdAt ?? new Date();
  return {
    submissionId: randomUUID(),
    name: "Lead de Prueba",
    phone: uniquePhone(),
    email: null,
    ...answers,
    message: "",
    score,
    level,
    reasons,
    source: "web",
    consentAt: createdAt,
    createdAt,
    updatedAt: createdAt,
    ...seed,
  };
}

export async function insertLeads(seeds: LeadSeed[]): Promise<LeadRow[]> {
  if (seeds.length === 0) return [];
  const db = await getDb();
  return db.insert(leads).values(seeds.map(leadValues)).returning();
}

export async function insertLead(seed: LeadSeed = {}): Promise<LeadRow> {
  const [row] = await insertLeads([seed]);
  if (!row) throw new Error("lead not inserted");
  return row;
}

export type AppointmentRow = typeof appointments.$inferSelect;

export interface AppointmentSeed {
  patientId: string;
  dentistId: string;
  startsAt: Date;
  /** The seeded treatment's slug ("consulta" unless given), or null for none. */
  slug?: string | null;
  /** The slot's length (endsAt − startsAt): else `durationMinutes`, else the treatment's duration. */
  minutes?: number;
  status?: string;
  /** The appointment's own duration (null unless given). */
  durationMinutes?: number;
  notes?: string;
}

/** Inserts appointments directly (fixtures the booking flow could not create, e.g. in the past or any status). */
export async function insertAppointments(seeds: AppointmentSeed[]): Promise<AppointmentRow[]> {
  if (seeds.length === 0) return [];
  const db = await getDb();
  const slugs = [...new Set(seeds.map((seed) => seed.slug ?? (seed.slug === null ? null : "consulta")))];
  const wanted = slugs.filter((slug): slug is string => slug !== null);
  const treatments =
    wanted.length === 0
      ? []
      : await db.select().from(treatmentsCatalog).where(inArray(treatmentsCatalog.slug, wanted));
  const values = seeds.map((seed) => {
    const slug = seed.slug === undefined ? "consulta" : seed.slug;
    const treatment = slug === null ? undefined : treatments.find((item) => item.slug === slug);
    if (slug !== null && !treatment) throw new Error(`no treatment ${slug}`);
    const minutes = seed.minutes ?? seed.durationMinutes ?? treatment?.durationMinutes;
    if (minutes === undefined) throw new Error("an appointment without a treatment needs its minutes");
    return {
      patientId: seed.patientId,
      dentistId: seed.dentistId,
      treatmentId: treatment?.id ?? null,
      startsAt: seed.startsAt,
      endsAt: new Date(seed.startsAt.getTime() + minutes * 60_000),
      durationMinutes: seed.durationMinutes ?? null,
      status: seed.status ?? "scheduled",
      notes: seed.notes ?? null,
    };
  });
  return db.insert(appointments).values(values).returning();
}

export async function insertAppointment(seed: AppointmentSeed): Promise<AppointmentRow> {
  const [row] = await insertAppointments([seed]);
  if (!row) throw new Error("appointment not inserted");
  return row;
}

// Payments (ADR 036): charges, Webpay attempts and refunds in any state, without going through Webpay.

export type ChargeRow = typeof charges.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

export async function insertCharge(
  seed: Pick<typeof charges.$inferInsert, "patientId"> & Partial<typeof charges.$inferInsert>,
): Promise<ChargeRow> {
  const db = await getDb();
  const [row] = await db
    .insert(charges)
    .values({ kind: "balance", concept: "Pago de presupuesto", amount: 45_000, ...seed })
    .returning();
  if (!row) throw new Error("charge not inserted");
  return row;
}

let buyOrders = 0;

/** An attempt on `charge`, by its patient, for the charge's amount unless given. */
export async function insertPayment(
  charge: ChargeRow,
  seed: Partial<typeof payments.$inferInsert> = {},
): Promise<PaymentRow> {
  const db = await getDb();
  const now = new Date();
  const [row] = await db
    .insert(payments)
    .values({
      chargeId: charge.id,
      patientId: charge.patientId,
      buyOrder: `RCTEST${Date.now().toString(36)}${(buyOrders++).toString(36)}`.toUpperCase().slice(0, 26),
      sessionId: randomUUID().replaceAll("-", ""),
      amount: charge.amount,
      formExpiresAt: new Date(now.getTime() + 10 * 60_000),
      ...seed,
    })
    .returning();
  if (!row) throw new Error("payment not inserted");
  return row;
}

export async function insertRefund(
  payment: PaymentRow,
  seed: Partial<typeof paymentRefunds.$inferInsert> = {},
) {
  const db = await getDb();
  const [row] = await db
    .insert(paymentRefunds)
    .values({ paymentId: payment.id, amount: 5_000, reason: "Cancelación a tiempo", ...seed })
    .returning();
  if (!row) throw new Error("refund not inserted");
  return row;
}

/** Inserts a charge directly (a deposit unless given), open unless given. */
export async function insertChargeRow(
  seed: Partial<typeof charges.$inferInsert> & { patientId: string },
): Promise<ChargeRow> {
  const db = await getDb();
  const [row] = await db
    .insert(charges)
    .values({ kind: "deposit", concept: "Abono: Implante dental", amount: 170_000, ...seed })
    .returning();
  if (!row) throw new Error("charge not inserted");
  return row;
}

/**
 * Inserts a Webpay attempt for a charge directly (authorized unless given, with its amount and a unique buy order),
 * for fixtures the Webpay fake would take minutes to produce (old, failed, reconciled attempts).
 */
export async function insertPaymentRow(
  seed: Partial<typeof payments.$inferInsert> & { charge: ChargeRow },
): Promise<PaymentRow> {
  const db = await getDb();
  const { charge, ...columns } = seed;
  const createdAt = columns.createdAt ?? new Date();
  const [row] = await db
    .insert(payments)
    .values({
      chargeId: charge.id,
      patientId: charge.patientId,
      buyOrder: buyOrderOf(createdAt.getTime(), randomUUID()),
      sessionId: randomUUID().slice(0, 20),
      token: randomUUID().replace(/-/g, ""),
      amount: charge.amount,
      status: "authorized",
      settledBy: "return",
      settledAt: createdAt,
      paymentTypeCode: "VN",
      cardLast4: "6623",
      formExpiresAt: new Date(createdAt.getTime() + 10 * 60_000),
      createdAt,
      updatedAt: createdAt,
      ...columns,
    })
    .returning();
  if (!row) throw new Error("payment not inserted");
  return row;
}
