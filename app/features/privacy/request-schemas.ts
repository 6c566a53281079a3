import { z } from "zod";
import { privacyRights } from "~/domain/privacy";
import { blockingMayBeAsked } from "~/domain/privacy-requests";
import {
  boundedText,
  consentAccepted,
  optionalChileanPhone,
  optionalEmail,
  optionalRut,
  personName,
  submissionId,
  text,
} from "~/lib/validation";

/** The forms of the rights workflow (client-safe: the browser runs the same schemas). */

const right = z.enum(privacyRights, { error: "Elige el derecho que quieres ejercer." });
const checkbox = z
  .literal("on")
  .optional()
  .transform((value) => value === "on");

export const CORRECTION_MESSAGE = "Indica qué dato está mal y cuál es el correcto.";
export const CONTACT_MESSAGE = "Ingresa un e-mail o un teléfono para confirmar que eres tú.";
export const ERASURE_CONFIRMATION_MESSAGE = "Confirma que entiendes qué significa eliminar tus datos.";

/** A rectification states the correction (art. 11: "las modificaciones precisas"). */
function refineRight(
  value: { right: (typeof privacyRights)[number]; details: string; blockingRequested: boolean },
  ctx: z.RefinementCtx,
) {
  if (value.right === "rectificacion" && value.details.trim().length < 5) {
    ctx.addIssue({ code: "custom", path: ["details"], message: CORRECTION_MESSAGE });
  }
  if (value.blockingRequested && !blockingMayBeAsked(value.right)) {
    ctx.addIssue({
      code: "custom",
      path: ["blockingRequested"],
      message: "El bloqueo temporal se puede pedir junto con rectificación, supresión u oposición.",
    });
  }
}

/** /eliminar-datos: anyone; the e-mail (a link) or, without one, the phone (a WhatsApp code) proves control. */
export const publicRequestSchema = z
  .object({
    submissionId,
    right,
    name: personName,
    email: optionalEmail.default(null),
    phone: optionalChileanPhone.default(null),
    rut: optionalRut.default(null),
    details: boundedText(2000, "El detalle"),
    blockingRequested: checkbox,
    consent: consentAccepted,
  })
  .superRefine((value, ctx) => {
    if (!value.email && !value.phone) {
      ctx.addIssue({ code: "custom", path: ["email"], message: CONTACT_MESSAGE });
    }
    refineRight(value, ctx);
  });
export type PublicRequestInput = z.output<typeof publicRequestSchema>;

/** The 6-digit WhatsApp code of the public entry. */
export const verificationCodeSchema = z.object({
  request: z.uuid("La solicitud no es válida."),
  code: text({ error: "Ingresa el código de 6 dígitos." })
    .trim()
    .transform((value) => value.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Ingresa el código de 6 dígitos.")),
});

/** The rights an account holder asks for from Mis Datos (access and portability are the export, self-service). */
export const accountRights = [
  "rectificacion",
  "supresion",
  "oposicion",
  "decisiones_automatizadas",
  "bloqueo",
] as const;

/** Mis Datos: the session proves who asks. Erasure needs its explicit "Entiendo que…". */
export const accountRequestSchema = z
  .object({
    submissionId,
    right: z.enum(accountRights, { error: "Elige qué quieres solicitar." }),
    details: boundedText(2000, "El detalle"),
    blockingRequested: checkbox,
    erasureUnderstood: checkbox,
  })
  .superRefine((value, ctx) => {
    refineRight(value, ctx);
    if (value.right === "supresion" && !value.erasureUnderstood) {
      ctx.addIssue({ code: "custom", path: ["erasureUnderstood"], message: ERASURE_CONFIRMATION_MESSAGE });
    }
  });
export type AccountRequestInput = z.output<typeof accountRequestSchema>;

const reason = (label: string) =>
  text({ error: `Escribe ${label}.` })
    .trim()
    .min(10, `Escribe ${label} (al menos 10 caracteres).`)
    .max(4000, `${label[0]!.toUpperCase()}${label.slice(1)} puede tener hasta 4.000 caracteres.`);

/** The clinic's actions on one request (/admin/privacidad/:id). */
export const staffActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("note"), text: reason("la nota") }),
    z.object({ intent: z.literal("extend"), reason: reason("el motivo de la prórroga") }),
    z.object({
      intent: z.literal("approve"),
      /** Rectification: what was corrected (required); otherwise an optional line for the person. */
      text: boundedText(4000, "El detalle"),
    }),
    z.object({
      intent: z.literal("partially_approve"),
      reason: reason("qué se aprobó y por qué no el resto"),
    }),
    z.object({ intent: z.literal("refuse"), reason: reason("el motivo del rechazo") }),
  ],
  { error: "Elige una acción." },
);
export type StaffAction = z.output<typeof staffActionSchema>;

/** The queue's filters (`?estado=&derecho=&plazo=`). */
export const queueFilterSchema = z.object({
  estado: z.enum(["abiertas", "por_confirmar", "cerradas", "todas"]).catch("abiertas"),
  derecho: z.enum(privacyRights).optional().catch(undefined),
  plazo: z.enum(["vencidas", "semana"]).optional().catch(undefined),
});
export type QueueFilter = z.output<typeof queueFilterSchema>;
