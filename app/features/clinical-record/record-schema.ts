import { z } from "zod";
import type { BadgeTone } from "~/domain/record-badges";
import {
  normaliseRecordCode,
  RECORD_CODE_MESSAGES,
  STAFF_REASON_MESSAGE,
  STAFF_REASON_MIN_LENGTH,
} from "~/domain/record-code";
import { RUT_MAX_LENGTH, RUT_MESSAGES, validateRut } from "~/domain/rut";
import type { ActionResult } from "~/lib/base/action-result";

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
}

/** The patient page: which view, and what it shows. */
export type PatientRecordPage =
  | { view: "unverified" }
  | { view: "rut" }
  | { view: "code"; message: string }
  /** Closed with 'Cerrar Sesión': reopened by the account's password (when it has one) or a new code. */
  | { view: "closed"; password: boolean }
  | { view: "error"; message: string }
  | { view: "record"; record: ClinicalRecordDto; accesses: RecordAccessItem[] };

export type RecordActionResult = ActionResult<{ view: "code" | "record" | "rut" }>;
