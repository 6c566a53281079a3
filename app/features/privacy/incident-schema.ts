import { z } from "zod";
import { MAX_NOTICE_RECIPIENTS } from "~/domain/privacy-incidents";
import { boundedText, text } from "~/lib/validation";

/** The breach register's forms (ADR 038): the incident, and the notice to the people affected. Client-safe. */

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** A `datetime-local` value, clinic time ("2027-06-15T10:30"). */
function localDateTime(label: string) {
  return text().trim().regex(LOCAL_DATE_TIME, `Indica ${label} con fecha y hora.`);
}

function optionalLocalDateTime(label: string) {
  return text()
    .trim()
    .refine((value) => value === "" || LOCAL_DATE_TIME.test(value), `Indica ${label} con fecha y hora.`)
    .transform((value) => value || undefined)
    .optional();
}

export const incidentSchema = z.object({
  title: text()
    .trim()
    .min(3, "Describe el incidente en pocas palabras.")
    .max(200, "El título puede tener hasta 200 caracteres."),
  description: text()
    .trim()
    .min(10, "Describe qué ocurrió.")
    .max(5000, "La descripción puede tener hasta 5.000 caracteres."),
  occurredAt: optionalLocalDateTime("cuándo ocurrió"),
  discoveredAt: localDateTime("cuándo se descubrió"),
  dataCategories: text()
    .trim()
    .min(3, "Indica qué datos se vieron afectados.")
    .max(1000, "Las categorías pueden tener hasta 1.000 caracteres."),
  sensitiveData: z
    .literal("on")
    .optional()
    .transform((value) => value === "on"),
  peopleAffected: text()
    .trim()
    .refine(
      (value) => value === "" || /^\d{1,7}$/.test(value),
      "Indica un número entero de personas, o déjalo vacío.",
    )
    .transform((value) => (value === "" ? null : Number(value)))
    .optional(),
  affectedDescription: boundedText(2000, "La descripción de las personas afectadas"),
  measures: boundedText(5000, "Las medidas"),
  agencyNotifiedAt: optionalLocalDateTime("cuándo se informó a la Agencia"),
  peopleNotifiedAt: optionalLocalDateTime("cuándo se informó a las personas"),
});
export type IncidentInput = z.infer<typeof incidentSchema>;

export const incidentNoticeSchema = z.object({
  noticeText: text()
    .trim()
    .min(50, "El aviso debe explicar qué ocurrió (al menos 50 caracteres).")
    .max(5000, "El aviso puede tener hasta 5.000 caracteres."),
  recipients: text()
    .trim()
    .min(3, "Pega los correos de las personas afectadas, uno por línea.")
    .max(MAX_NOTICE_RECIPIENTS * 260, "Demasiados destinatarios para un solo envío."),
});
export type IncidentNoticeInput = z.infer<typeof incidentNoticeSchema>;

/** Sending needs the explicit confirmation that the text and the recipients were reviewed. */
export const incidentNoticeSendSchema = incidentNoticeSchema.extend({
  confirmed: z.literal("on", { error: "Confirma que revisaste el texto y los destinatarios." }),
});
