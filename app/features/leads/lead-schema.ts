import { z } from "zod";
import type { ActionResult } from "~/lib/base/action-result";
import { budgets, treatments, urgencies } from "~/domain/lead-scoring";
import {
  boundedText,
  chileanPhone,
  consentAccepted,
  optionalEmail,
  personName,
  submissionId,
} from "~/lib/validation";

/** The longest message a lead keeps, from the form or from WhatsApp. */
export const LEAD_MESSAGE_MAX_LENGTH = 2000;

export const leadSources = ["web", "asistente"] as const;

export const leadFormSchema = z.object({
  submissionId,
  name: personName,
  phone: chileanPhone,
  email: optionalEmail.default(""),
  treatment: z.enum(treatments, { error: "Elige el tratamiento que te interesa." }),
  urgency: z.enum(urgencies, { error: "Indica cuándo te gustaría comenzar." }),
  budget: z.enum(budgets, { error: "Elige un rango de presupuesto." }),
  message: boundedText(LEAD_MESSAGE_MAX_LENGTH, "El mensaje"),
  consent: consentAccepted,
  source: z.enum(leadSources).default("web"),
});

export type LeadFormInput = z.input<typeof leadFormSchema>;
export type LeadForm = z.output<typeof leadFormSchema>;

/** What the lead action answers; shared by the landing form and the guided assistant. */
export type LeadActionResult = ActionResult<{ promise: { title: string; detail: string } }>;
