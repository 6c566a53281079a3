import { z } from "zod";
import {
  boundedText,
  chileanPhone,
  consentAccepted,
  emailAddress,
  optionalChileanPhone,
  optionalEmail,
  optionalRut,
  personName,
  submissionId,
} from "~/lib/validation";
import { callbackTimes, dataRightsTypes } from "./request-options";

export const dataRightsRequestSchema = z.object({
  submissionId,
  requestType: z.enum(dataRightsTypes, { error: "Elige el derecho que quieres ejercer." }),
  name: personName,
  email: emailAddress,
  phone: optionalChileanPhone.default(null),
  rut: optionalRut.default(null),
  details: boundedText(2000, "El detalle"),
  consent: consentAccepted,
});

export const callbackRequestSchema = z.object({
  submissionId,
  name: personName,
  phone: chileanPhone,
  email: optionalEmail.default(""),
  preferredTime: z.enum(callbackTimes, { error: "Elige un horario para llamarte." }),
  reason: boundedText(1000, "El motivo"),
  consent: consentAccepted,
});

export type DataRightsRequest = z.output<typeof dataRightsRequestSchema>;
export type CallbackRequest = z.output<typeof callbackRequestSchema>;

/** What a stored request answers: the reference the visitor may quote. */
export interface RequestReceipt {
  reference: string;
}
