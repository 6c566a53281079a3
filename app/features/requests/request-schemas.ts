import { z } from "zod";
import {
  boundedText,
  chileanPhone,
  consentAccepted,
  optionalEmail,
  personName,
  submissionId,
} from "~/lib/validation";
import { callbackTimes } from "./request-options";

export const callbackRequestSchema = z.object({
  submissionId,
  name: personName,
  phone: chileanPhone,
  email: optionalEmail.default(""),
  preferredTime: z.enum(callbackTimes, { error: "Elige un horario para llamarte." }),
  reason: boundedText(1000, "El motivo"),
  consent: consentAccepted,
});

export type CallbackRequest = z.output<typeof callbackRequestSchema>;

/** What a stored request answers: the reference the visitor may quote. */
export interface RequestReceipt {
  reference: string;
}
