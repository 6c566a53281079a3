import { z } from "zod";
import { leadStatuses } from "~/domain/lead-pipeline";

/** The lead page's forms (ADR 025); the same checks run in the action. Client-safe. */

export const NOTE_MAX_LENGTH = 2000;

const status = (message: string) => z.enum(leadStatuses, { error: message });
const STALE = "Recarga la página: el estado del lead no es válido.";

export const leadPageActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("transition"),
      from: status(STALE),
      to: status("El estado elegido no es válido."),
      reason: z.string().trim().max(40).optional(),
    }),
    z.object({ intent: z.literal("contact"), from: status(STALE) }),
    z.object({
      intent: z.literal("note"),
      text: z
        .string({ error: "Escribe la nota." })
        .trim()
        .min(1, "Escribe la nota.")
        .max(
          NOTE_MAX_LENGTH,
          `La nota puede tener hasta ${NOTE_MAX_LENGTH.toLocaleString("es-CL")} caracteres.`,
        ),
    }),
    z.object({
      intent: z.literal("assign"),
      // "" = nobody.
      assigneeId: z.string().trim().max(64, "Elige un asesor de la lista."),
    }),
    z.object({
      intent: z.literal("availability"),
      userId: z.string().trim().min(1, "Falta la persona.").max(64, "Falta la persona."),
      away: z.enum(["1", "0"], { error: "La disponibilidad no es válida." }),
    }),
  ],
  { error: "La acción solicitada no es válida." },
);

export type LeadPageAction = z.output<typeof leadPageActionSchema>;
