import { z } from "zod";
import { budgets, treatments, urgencies } from "~/domain/lead-scoring";
import { boundedText, chileanPhone, optionalEmail, personName } from "~/lib/validation";
import { scenarioKeys } from "./test-scenarios";

const AGE_ERROR = "Ingresa una edad válida, entre 1 y 120 años.";

const age = z.union([
  z.literal("").transform(() => null),
  z.coerce.number({ error: AGE_ERROR }).int(AGE_ERROR).min(1, AGE_ERROR).max(120, AGE_ERROR),
]);

/** The custom test lead: the fields of the specification's "Lead (test input)". */
export const leadTestInputSchema = z.object({
  name: personName,
  phone: chileanPhone,
  email: optionalEmail.default(""),
  age: age.default(null),
  treatment: z.enum(treatments, { error: "Elige un tratamiento." }),
  urgency: z.enum(urgencies, { error: "Elige una urgencia." }),
  budget: z.enum(budgets, { error: "Elige un presupuesto." }),
  message: boundedText(2000, "El mensaje"),
});

export type LeadTestInput = z.output<typeof leadTestInputSchema>;

export const leadTestActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("scenario"),
      scenario: z.enum(scenarioKeys, { error: "Escenario desconocido." }),
    }),
    leadTestInputSchema.extend({ intent: z.literal("custom") }),
  ],
  { error: "La acción solicitada no es válida." },
);

const sendAttempt = {
  /** Made by the browser once per attempt: a double click or a resent request sends nothing new. */
  attemptKey: z.uuid({ error: "El intento de envío no es válido. Recarga la página e intenta nuevamente." }),
  /** "1" test mode (nothing reaches the provider), "0" a real send; missing means test mode. */
  testMode: z
    .enum(["1", "0"], { error: "El modo de prueba no es válido." })
    .default("1")
    .transform((value) => value === "1"),
};

/**
 * The WhatsApp card's send for the current test lead: a predefined scenario by its key, or the custom lead's
 * fields, validated again and scored on the server (the browser's score is never trusted).
 */
export const whatsAppTestSendSchema = z.discriminatedUnion(
  "source",
  [
    z.object({
      source: z.literal("scenario"),
      scenario: z.enum(scenarioKeys, { error: "Escenario desconocido." }),
      ...sendAttempt,
    }),
    leadTestInputSchema.extend({ source: z.literal("custom"), ...sendAttempt }),
  ],
  { error: "Primero ejecuta un escenario o una prueba personalizada." },
);

export type WhatsAppTestSend = z.output<typeof whatsAppTestSendSchema>;
