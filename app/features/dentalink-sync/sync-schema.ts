import { z } from "zod";
import { clinicDate } from "~/domain/clinic-time";
import { parseChileanPhone } from "~/domain/format";
import { optionalRut, PHONE_ERROR } from "~/lib/validation";
import {
  DENTIST_LINK_INTENT,
  NO_DENTALINK_DENTIST,
  SYNC_INTENT,
  WRITE_THROUGH_RETRY_INTENT,
  SYNC_PAST_DATE_MESSAGE,
  SYNC_REQUIRED_MESSAGES as REQUIRED,
  syncAppointmentTimes,
  syncTreatmentTypes,
} from "./sync-options";

/**
 * The Dentalink sync form (ADR 019): one schema for the browser and the action (ADR 013). Every required
 * field answers its own message verbatim, whitespace-only counts as empty, and every problem is reported at once
 * (no field stops the others). "Today" is the clinic's (DESIGN decision 8), read when the form is checked.
 */

const EMAIL_ERROR = "Ingresa un email válido, por ejemplo nombre@correo.cl";

/** Trimmed text that must not be empty (`required` is the spec's message), up to `max` characters. */
function requiredText(required: string, max: number, tooLong: string) {
  return z
    .string({ error: required })
    .trim()
    .transform((value, ctx) => {
      if (!value) ctx.addIssue({ code: "custom", message: required });
      else if (value.length > max) ctx.addIssue({ code: "custom", message: tooLong });
      return value;
    });
}

function optionalText(max: number, label: string) {
  return z
    .string()
    .trim()
    .max(max, `${label} puede tener hasta ${max.toLocaleString("es-CL")} caracteres`)
    .default("");
}

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A date field (`AAAA-MM-DD`, what `<input type="date">` sends), required, with a rule against today. */
function requiredDate(
  required: string,
  invalid: string,
  rule: (date: string, today: string) => string | null,
) {
  return z
    .string({ error: required })
    .trim()
    .transform((value, ctx) => {
      if (!value) {
        ctx.addIssue({ code: "custom", message: required });
        return value;
      }
      if (!isCalendarDate(value)) {
        ctx.addIssue({ code: "custom", message: invalid });
        return value;
      }
      const problem = rule(value, clinicDate(new Date()));
      if (problem) ctx.addIssue({ code: "custom", message: problem });
      return value;
    });
}

/** One of `values`; empty is the spec's required message. */
function requiredChoice<const Values extends readonly string[]>(
  values: Values,
  required: string,
  invalid: string,
) {
  return z
    .string({ error: required })
    .trim()
    .transform((value, ctx) => {
      if (!value) ctx.addIssue({ code: "custom", message: required });
      else if (!values.includes(value)) ctx.addIssue({ code: "custom", message: invalid });
      return value as Values[number];
    });
}

export const syncFormSchema = z.object({
  firstName: requiredText(REQUIRED.firstName, 100, "El nombre puede tener hasta 100 caracteres"),
  lastName: requiredText(REQUIRED.lastName, 100, "El apellido puede tener hasta 100 caracteres"),
  rut: optionalRut.default(null),
  email: z
    .string({ error: REQUIRED.email })
    .trim()
    .toLowerCase()
    .transform((value, ctx) => {
      if (!value) ctx.addIssue({ code: "custom", message: REQUIRED.email });
      else if (value.length > 254 || !z.email().safeParse(value).success) {
        ctx.addIssue({ code: "custom", message: EMAIL_ERROR });
      }
      return value;
    }),
  phone: z
    .string({ error: REQUIRED.phone })
    .trim()
    .transform((value, ctx) => {
      if (!value) {
        ctx.addIssue({ code: "custom", message: REQUIRED.phone });
        return value;
      }
      const parsed = value.length <= 30 ? parseChileanPhone(value) : null;
      if (!parsed) ctx.addIssue({ code: "custom", message: PHONE_ERROR });
      return parsed ?? value;
    }),
  birthDate: requiredDate(REQUIRED.birthDate, "Ingresa una fecha de nacimiento válida", (date, today) =>
    date > today
      ? "La fecha de nacimiento no puede ser posterior a hoy"
      : date < "1900-01-01"
        ? "Ingresa una fecha de nacimiento válida"
        : null,
  ),
  address: optionalText(200, "La dirección"),
  city: optionalText(100, "La ciudad"),
  treatmentType: requiredChoice(
    syncTreatmentTypes,
    REQUIRED.treatmentType,
    "Elige un tipo de tratamiento de la lista",
  ),
  appointmentDate: requiredDate(
    REQUIRED.appointmentDate,
    "Ingresa una fecha de cita válida",
    (date, today) => (date < today ? SYNC_PAST_DATE_MESSAGE : null),
  ),
  appointmentTime: requiredChoice(
    syncAppointmentTimes,
    REQUIRED.appointmentTime,
    "Elige una hora de cita de la lista",
  ),
  // The dentists come from Dentalink (`/dentistas`); the action checks the id against that list.
  dentistId: requiredText(REQUIRED.dentistId, 64, "Elige un dentista de la lista"),
  insuranceProvider: optionalText(100, "La previsión"),
  emergencyContact: optionalText(200, "El contacto de emergencia"),
  medicalHistory: optionalText(2000, "Los antecedentes médicos"),
  notes: optionalText(1000, "Las notas"),
});

export type SyncFormInput = z.output<typeof syncFormSchema>;

/** The action's body: the form plus its idempotency key and, from a lead card, the lead. */
export const syncActionSchema = syncFormSchema.extend({
  intent: z.literal(SYNC_INTENT),
  submissionId: z.uuid("Solicitud inválida. Recarga la página e intenta nuevamente."),
  leadId: z
    .union([z.literal("").transform(() => null), z.uuid("El lead indicado no es válido.")])
    .default(null),
});

export type SyncActionInput = z.output<typeof syncActionSchema>;

/** An admin's link of one of our dentists: a Dentalink dentist id, or "" for none. */
export const dentistLinkActionSchema = z.object({
  intent: z.literal(DENTIST_LINK_INTENT),
  dentistId: z.string().trim().min(1, "Falta el dentista.").max(64, "Dentista inválido."),
  dentalinkDentistId: z
    .string()
    .trim()
    .max(64, "Dentista de Dentalink inválido.")
    .transform((value) => (value === NO_DENTALINK_DENTIST ? null : value)),
});

export const writeThroughRetrySchema = z.object({
  intent: z.literal(WRITE_THROUGH_RETRY_INTENT),
  outboxId: z.uuid("Envío inválido."),
});
