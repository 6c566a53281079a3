import { z } from "zod";
import { parseChileanPhone } from "~/domain/format";
import { containsNul } from "~/domain/nul-character";
import { RUT_MAX_LENGTH, validateRut } from "~/domain/rut";

export const PHONE_ERROR = "Ingresa un teléfono chileno válido, por ejemplo +56 9 1234 5678.";
export const NUL_ERROR = "El texto contiene un carácter no válido.";

/**
 * The base of the shared text fields below: a string without the NUL character, which PostgreSQL cannot store
 * (ADR 034; `readForm` already refuses it, this keeps the schemas safe wherever else they are used).
 */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine((value) => !containsNul(value), NUL_ERROR);
}

/** A Chilean phone typed any common way, stored as E.164. */
export const chileanPhone = text({ error: PHONE_ERROR })
  .trim()
  .min(1, "Ingresa tu teléfono.")
  .max(30, PHONE_ERROR)
  .transform((value, ctx) => {
    const parsed = parseChileanPhone(value);
    if (!parsed) {
      ctx.addIssue({ code: "custom", message: PHONE_ERROR });
      return z.NEVER;
    }
    return parsed;
  });

/**
 * The one optional Chilean phone field: blank (or only spaces) → null; anything else must be a Chilean phone,
 * stored as E.164, or it fails with `message` (a union would answer zod's English "Invalid input"). Forms that may
 * omit the field add `.default(null)`.
 */
export function optionalChileanPhoneField(message: string = PHONE_ERROR) {
  return text({ error: message })
    .trim()
    .max(30, message)
    .transform((value, ctx) => {
      if (!value) return null;
      const parsed = parseChileanPhone(value);
      if (!parsed) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return parsed;
    });
}

/** Empty → null; anything else must be a Chilean phone (Spanish message). */
export const optionalChileanPhone = optionalChileanPhoneField();

/**
 * An optional RUT: blank → null; anything else is validated by domain/rut.ts with the spec's specific messages and
 * stored canonical ("12345678-5"). Forms that may omit the field add `.default(null)`.
 */
export const optionalRut = text()
  .trim()
  .max(RUT_MAX_LENGTH + 2, "El RUT debe tener entre 8 y 9 caracteres")
  .transform((value, ctx) => {
    if (!value) return null;
    const result = validateRut(value);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    }
    return result.rut;
  });

export const personName = text({ error: "Ingresa tu nombre." })
  .trim()
  .min(2, "Ingresa tu nombre (al menos 2 caracteres).")
  .max(100, "El nombre puede tener hasta 100 caracteres.");

const EMAIL_ERROR_TEXT = "Ingresa un e-mail válido, por ejemplo nombre@correo.cl.";

export const emailAddress = text({ error: "Ingresa tu e-mail." })
  .trim()
  .toLowerCase()
  .max(254, "El e-mail es demasiado largo.")
  .pipe(z.email(EMAIL_ERROR_TEXT));

/** Empty → null; anything else must be an e-mail. */
export const optionalEmail = text({ error: EMAIL_ERROR_TEXT })
  .trim()
  .toLowerCase()
  .max(254, "El e-mail es demasiado largo.")
  .transform((value, ctx) => {
    if (!value) return null;
    if (!z.email().safeParse(value).success) {
      ctx.addIssue({ code: "custom", message: EMAIL_ERROR_TEXT });
      return z.NEVER;
    }
    return value;
  });

/** Empty when the form was sent without JavaScript (see lib/submission-id.tsx). */
export const submissionId = z
  .union([z.literal("").transform(() => undefined), z.uuid("Solicitud inválida.")])
  .optional();

export const consentAccepted = z.literal("on", {
  error: "Debes aceptar la Política de Privacidad para continuar.",
});

export function boundedText(max: number, label: string) {
  return text()
    .trim()
    .max(max, `${label} puede tener hasta ${max.toLocaleString("es-CL")} caracteres.`)
    .default("");
}
