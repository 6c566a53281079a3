import { z } from "zod";
import { BOOKING_HORIZON_DAYS } from "~/domain/appointment-policy";
import { addDays } from "~/domain/clinic-time";
import type { DayPart } from "~/domain/waitlist";
import {
  calendarDate,
  clockTime,
  dentistChoice,
  treatmentSlug,
} from "~/features/appointments/appointment-schema";
import type { ActionResult } from "~/lib/base/action-result";

/**
 * The forms of /paciente/lista-de-espera (ADR 040), client-safe: the browser checks them with the same schema
 * before posting, the server again. Whether the treatment, the dentist and the linked booking exist is decided on
 * the server.
 */

/** At most this many active entries per patient. */
export const MAX_ACTIVE_ENTRIES = 5;

const WEEKDAY_FIELDS = ["dia1", "dia2", "dia3", "dia4", "dia5", "dia6", "dia7"] as const;
const checked = z.string().optional();

export const UNTIL_PAST = "La fecha límite no puede ser anterior a hoy.";
export const UNTIL_BEYOND = `La fecha límite puede ser hasta ${BOOKING_HORIZON_DAYS} días desde hoy.`;
export const DAY_PART_REQUIRED = "Elige mañana, tarde o ambas.";

/** The last date an entry may run until, from the clinic's `today`: the booking horizon. */
export function latestUntilDate(today: string): string {
  return addDays(today, BOOKING_HORIZON_DAYS);
}

/** What is wrong with a chosen last date, or null: not before today, not beyond the booking horizon. */
export function untilDateProblem(untilDate: string, today: string): string | null {
  if (untilDate < today) return UNTIL_PAST;
  if (untilDate > latestUntilDate(today)) return UNTIL_BEYOND;
  return null;
}

const joinSchema = z
  .object({
    intent: z.literal("join"),
    treatment: treatmentSlug,
    dentist: dentistChoice,
    appointmentId: z.union([z.literal(""), z.uuid({ error: "La cita indicada no es válida." })]).optional(),
    untilDate: calendarDate,
    /** The clinic's today as the page saw it; the server uses its own. */
    manana: checked,
    tarde: checked,
    ...Object.fromEntries(WEEKDAY_FIELDS.map((name) => [name, checked])),
  })
  .transform((form) => {
    const record = form as Record<string, string | undefined>;
    return {
      intent: "join" as const,
      treatment: form.treatment,
      dentist: form.dentist,
      appointmentId: form.appointmentId ? form.appointmentId : null,
      untilDate: form.untilDate,
      dayParts: (["manana", "tarde"] as const).filter((part) => Boolean(record[part])) as DayPart[],
      weekdays: WEEKDAY_FIELDS.flatMap((name, index) => (record[name] ? [index + 1] : [])),
    };
  })
  .refine((form) => form.dayParts.length > 0, { error: DAY_PART_REQUIRED, path: ["dayParts"] });

export const waitlistActionSchema = z.union([
  joinSchema,
  z.object({ intent: z.literal("withdraw"), entryId: z.uuid({ error: "La solicitud no es válida." }) }),
]);
export type WaitlistAction = z.output<typeof waitlistActionSchema>;
export type WaitlistJoin = Extract<WaitlistAction, { intent: "join" }>;

export type WaitlistActionResult = ActionResult<{ intent: WaitlistAction["intent"] }>;

/** 'Ofrecer esta hora' (the admin page): a dentist's free time, optionally to one entry. */
export const manualOfferSchema = z.object({
  dentistId: z
    .string({ error: "Elige un dentista de la lista." })
    .trim()
    .min(1, "Elige un dentista de la lista."),
  date: calendarDate,
  time: clockTime,
  durationMinutes: z.coerce
    .number({ error: "Elige la duración." })
    .int()
    .refine((value) => [30, 45, 60, 90, 120].includes(value), { error: "Elige la duración." }),
  entryId: z.union([z.literal(""), z.uuid({ error: "La solicitud no es válida." })]).optional(),
});
export type ManualOfferInput = z.output<typeof manualOfferSchema>;
