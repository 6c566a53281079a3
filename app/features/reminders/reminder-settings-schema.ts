import { z } from "zod";
import {
  defaultReminderSequence,
  reminderSteps,
  type ReminderSequenceSettings,
} from "~/domain/reminder-sequence";

/** The `clinic_settings` key of the reminder sequence. */
export const REMINDER_SEQUENCE_KEY = "reminder_sequence";

/**
 * The stored value: each step on or off. A step missing from a stored value (an older value, a new step) takes the
 * default, so reading never fails on a partial value.
 */
export const reminderSequenceSchema = z.object({
  "48h": z.boolean().default(defaultReminderSequence["48h"]),
  "24h": z.boolean().default(defaultReminderSequence["24h"]),
  "2h": z.boolean().default(defaultReminderSequence["2h"]),
}) satisfies z.ZodType<ReminderSequenceSettings, unknown>;

/** The admin's form: a checkbox per step (present = on), so an unticked step is simply absent. */
export function reminderSequenceFromForm(form: Record<string, string>): ReminderSequenceSettings {
  return Object.fromEntries(
    reminderSteps.map((step) => [step, form[step] === "on"]),
  ) as ReminderSequenceSettings;
}
