import { z } from "zod";
import type { ActionResult } from "~/lib/base/action-result";

/**
 * The forms of /paciente/citas (one `intent` per action) and the query of /paciente/citas/horarios. Client-safe:
 * the same rules run in the browser and on the server. Whether a slug, a dentist or a slot really exists is decided
 * on the server against the database.
 */

const DATE_ERROR = "Elige una fecha válida.";
const TIME_ERROR = "Elige un horario válido.";

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day;
}

/** A calendar date "YYYY-MM-DD" that exists. */
export const calendarDate = z
  .string({ error: DATE_ERROR })
  .trim()
  .refine(isCalendarDate, { error: DATE_ERROR });

/** A clinic wall-clock time "HH:mm". */
export const clockTime = z
  .string({ error: TIME_ERROR })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: TIME_ERROR });

/** A treatment's slug; that it is one of the clinic's treatments is checked against the list on the server. */
export const treatmentSlug = z
  .string({ error: "Elige un tratamiento de la lista." })
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,59}$/, { error: "Elige un tratamiento de la lista." });

export const ANY_DENTIST = "any";

/** A dentist's user id (opaque, from the list) or "any". */
export const dentistChoice = z
  .string({ error: "Elige un dentista de la lista." })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "Elige un dentista de la lista." });

const appointmentId = z.uuid({ error: "La cita indicada no es válida." });

export const NOTES_MAX = 500;

export const appointmentActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("book"),
      treatment: treatmentSlug,
      dentist: dentistChoice,
      date: calendarDate,
      time: clockTime,
      notes: z
        .string()
        .trim()
        .max(NOTES_MAX, `Las notas pueden tener hasta ${NOTES_MAX} caracteres.`)
        .optional()
        .default(""),
    }),
    z.object({ intent: z.literal("reschedule"), appointmentId, date: calendarDate, time: clockTime }),
    z.object({ intent: z.literal("cancel"), appointmentId }),
    z.object({ intent: z.literal("confirm"), appointmentId }),
    // 'Pagar abono' / 'Reintentar pago': the server finds the appointment's open deposit charge itself (ADR 036).
    z.object({ intent: z.literal("pay"), appointmentId }),
  ],
  { error: "La acción no es válida." },
);
export type AppointmentAction = z.output<typeof appointmentActionSchema>;

/** `?tratamiento=&dentista=&fecha=` of /paciente/citas/horarios. */
export const slotQuerySchema = z.object({
  tratamiento: treatmentSlug,
  dentista: dentistChoice,
  fecha: calendarDate,
});
export type SlotQueryParams = z.output<typeof slotQuerySchema>;

/** What /paciente/citas/horarios answers. */
export type SlotsResponse = ActionResult<{ date: string; slots: Array<{ time: string }> }>;

/** What the page's action answers (errors carry a Spanish message, successes a message for the toast). */
export type AppointmentActionResult = ActionResult<{ intent: AppointmentAction["intent"] }>;
