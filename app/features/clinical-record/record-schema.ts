import { z } from "zod";
import { parsePesoAmount, PESO_AMOUNT_MESSAGE } from "~/domain/payments";
import type { BadgeTone } from "~/domain/record-badges";
import {
  normaliseRecordCode,
  RECORD_CODE_MESSAGES,
  STAFF_REASON_MESSAGE,
  STAFF_REASON_MIN_LENGTH,
} from "~/domain/record-code";
import { RUT_MAX_LENGTH, RUT_MESSAGES, validateRut } from "~/domain/rut";
import type { ActionFailure, ActionResult } from "~/lib/base/action-result";

/** A required RUT with the RUT field's messages, canonical ("12345678-5") once valid. */
export const requiredRut = z
  .string({ error: RUT_MESSAGES.empty })
  .max(RUT_MAX_LENGTH + 8, RUT_MESSAGES.length)
  .transform((value, ctx) => {
    const result = validateRut(value);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    }
    return result.rut;
  });

export const rutFormSchema = z.object({ intent: z.literal("rut"), rut: requiredRut });

export const codeFormSchema = z.object({
  intent: z.literal("code"),
  code: z
    .string({ error: RECORD_CODE_MESSAGES.format })
    .max(20, RECORD_CODE_MESSAGES.format)
    .transform((value, ctx) => {
      const code = normaliseRecordCode(value);
      if (code === null) {
        ctx.addIssue({ code: "custom", message: RECORD_CODE_MESSAGES.format });
        return z.NEVER;
      }
      return code;
    }),
});

export const reopenPasswordSchema = z.object({
  intent: z.literal("password"),
  password: z
    .string({ error: "Ingresa la contraseña de tu cuenta." })
    .min(1, "Ingresa la contraseña de tu cuenta.")
    .max(128, "La contraseña no es correcta."),
});

export const staffLookupSchema = z.object({
  rut: requiredRut,
  reason: z
    .string({ error: STAFF_REASON_MESSAGE })
    .trim()
    .min(STAFF_REASON_MIN_LENGTH, STAFF_REASON_MESSAGE)
    .max(500, "El motivo puede tener hasta 500 caracteres."),
});

export const BUDGET_NOT_FOUND_MESSAGE = "No encontramos ese presupuesto en tu ficha clínica.";

/**
 * 'Pagar saldo' on Mi Ficha's Pagos tab: which budget (Dentalink's tratamiento id) and how much, in whole pesos as
 * typed in Chile ("15.000"). The balance itself is never taken from the form: the server reads it from Dentalink.
 */
export const balancePaymentSchema = z.object({
  intent: z.literal("pay-balance"),
  budgetId: z
    .string({ error: BUDGET_NOT_FOUND_MESSAGE })
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, BUDGET_NOT_FOUND_MESSAGE),
  amount: z
    .string({ error: PESO_AMOUNT_MESSAGE })
    .max(20, PESO_AMOUNT_MESSAGE)
    .transform((value, ctx) => {
      const amount = parsePesoAmount(value);
      if (amount === null || amount < 1) {
        ctx.addIssue({ code: "custom", message: PESO_AMOUNT_MESSAGE });
        return z.NEVER;
      }
      return amount;
    }),
});

// ---- What the pages show (DTOs built field by field) -----------------------------------------------------------

export interface Badge {
  label: string;
  tone: BadgeTone;
}

export interface RecordAppointment {
  id: string;
  date: string;
  time: string;
  treatment: string;
  doctor: string;
  office: string;
  status: Badge;
}

export interface RecordPayment {
  id: string;
  date: string;
  amount: string;
  concept: string;
  method: string;
  status: Badge;
}

export interface RecordTreatment {
  id: string;
  name: string;
  description: string;
  startDate: string;
  endDate: string | null;
  progress: number;
  status: Badge;
}

export interface RecordFile {
  id: string;
  name: string;
  type: string;
  date: string;
  /** Our proxy, never the vendor's URL. */
  href: string;
}

/** A Dentalink budget that still owes something, as Mi Ficha's Pagos tab shows it to its patient. */
export interface RecordBalance {
  budgetId: string;
  name: string;
  /** What is left to pay online now, in pesos: Dentalink's balance less what was paid online and not yet recorded. */
  balance: number;
  /** "$120.000" */
  balanceLabel: string;
  /** The amount field's default, the whole balance as typed in Chile: "120.000". */
  amountInput: string;
  /** Paid online (or being paid) and not yet recorded at Dentalink, when there is any: "$30.000". */
  paidOnlineLabel: string | null;
}

/** One list of the record: its items, or the message of its own failure (a failed list hides no other). */
export type RecordList<Item> = { ok: true; items: Item[] } | { ok: false; message: string };

export interface RecordAccessItem {
  id: string;
  who: string;
  role: string;
  /** "Abrió tu ficha", "Vinculó tu RUT a su cuenta", "Abrió un archivo". */
  what: string;
  when: string;
  reason: string | null;
}

export interface ClinicalRecordDto {
  patient: { name: string; rut: string; email: string | null; phone: string | null };
  appointments: RecordList<RecordAppointment>;
  payments: RecordList<RecordPayment>;
  treatments: RecordList<RecordTreatment>;
  documents: RecordList<RecordFile>;
  xrays: RecordList<RecordFile>;
  /** The patient's own page only: the budgets with a balance ('Pagar saldo'). Staff lookups leave it out. */
  balances?: RecordList<RecordBalance>;
}

/** The patient page: which view, and what it shows. */
export type PatientRecordPage =
  | { view: "unverified" }
  | { view: "rut" }
  | { view: "code"; message: string }
  /** Closed with 'Cerrar Sesión': reopened by the account's password (when it has one) or a new code. */
  | { view: "closed"; password: boolean }
  | { view: "error"; message: string }
  | {
      view: "record";
      record: ClinicalRecordDto;
      accesses: RecordAccessItem[];
      /** False when online payment is off: 'Pagar saldo' is replaced by a notice. */
      onlinePayment: boolean;
    };

export type RecordActionResult = ActionResult<{ view: "code" | "record" | "rut" }>;

/** A refused 'Pagar saldo', with the budget whose form shows the message. */
export type BalanceActionFailure = ActionFailure & { budgetId: string };

export function isBalanceFailure(result: unknown): result is BalanceActionFailure {
  return (
    typeof result === "object" &&
    result !== null &&
    (result as { ok?: unknown }).ok === false &&
    typeof (result as { budgetId?: unknown }).budgetId === "string"
  );
}
