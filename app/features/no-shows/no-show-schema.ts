import { z } from "zod";
import {
  DEFAULT_NO_SHOW_RULE,
  MAX_NO_SHOW_THRESHOLD,
  MIN_NO_SHOW_THRESHOLD,
  type NoShowRule,
} from "~/domain/no-shows";

/** The no-show rule as stored in clinic_settings (key 'no_shows') and posted by the admin's form. Client-safe. */

export const NO_SHOW_SETTINGS_KEY = "no_shows";

const THRESHOLD_MESSAGE = `Indica un número de inasistencias entre ${MIN_NO_SHOW_THRESHOLD} y ${MAX_NO_SHOW_THRESHOLD}.`;

export const noShowRuleSchema = z
  .object({
    enabled: z.boolean({ error: "Indica si la regla está activa." }),
    threshold: z
      .number({ error: THRESHOLD_MESSAGE })
      .int({ error: THRESHOLD_MESSAGE })
      .min(MIN_NO_SHOW_THRESHOLD, { error: THRESHOLD_MESSAGE })
      .max(MAX_NO_SHOW_THRESHOLD, { error: THRESHOLD_MESSAGE }),
  })
  .strict() satisfies z.ZodType<NoShowRule>;

/** The settings form: a checkbox and a number field (a plain form post, no JavaScript needed). */
export function noShowRuleFromForm(form: FormData) {
  const threshold = String(form.get("threshold") ?? "").trim();
  return noShowRuleSchema.safeParse({
    enabled: form.get("enabled") === "on",
    threshold: /^\d{1,3}$/.test(threshold) ? Number(threshold) : Number.NaN,
  });
}

export { DEFAULT_NO_SHOW_RULE };

/** The mark and undo buttons' form. */
export const noShowActionSchema = z.object({
  intent: z.enum(["mark", "undo"], { error: "La acción no es válida." }),
  appointmentId: z.uuid({ error: "La cita no es válida." }),
});

export type NoShowActionInput = z.infer<typeof noShowActionSchema>;
