import { z } from "zod";
import { currentConsentText } from "~/domain/consent-texts";
import type { ActionResult } from "~/lib/base/action-result";
import { boundedText, optionalChileanPhone } from "~/lib/validation";

export const PROFILE_NAME_MAX = 80;
export const PROFILE_ADDRESS_MAX = 300;
export const PROFILE_EMERGENCY_CONTACT_MAX = 100;

/** The consent's text as the ledger versions it (`app/domain/consent-texts.ts`). */
export const WHATSAPP_OPT_IN_LABEL = currentConsentText("recordatorios_whatsapp").text;
export const WHATSAPP_NEEDS_PHONE = "Para recibir mensajes por WhatsApp ingresa tu teléfono móvil.";

function requiredName(missing: string, tooLong: string) {
  return z.string({ error: missing }).trim().min(1, missing).max(PROFILE_NAME_MAX, tooLong);
}

/** Blank means "none": stored as null. */
function optionalText(max: number, label: string) {
  return boundedText(max, label).transform((value) => value || null);
}

/** Blank (or only spaces) clears a phone; a missing field counts as blank. */
const optionalPhone = optionalChileanPhone.default(null);

/**
 * Mi Perfil's fields, the ones the page edits. Only these keys survive parsing: anything else a client
 * sends (email, role, id, deactivatedAt...) is dropped, so it can never reach the update.
 */
export const profileSchema = z
  .object({
    firstName: requiredName(
      "Ingresa tu nombre.",
      `El nombre puede tener hasta ${PROFILE_NAME_MAX} caracteres.`,
    ),
    lastName: requiredName(
      "Ingresa tu apellido.",
      `El apellido puede tener hasta ${PROFILE_NAME_MAX} caracteres.`,
    ),
    phone: optionalPhone,
    address: optionalText(PROFILE_ADDRESS_MAX, "La dirección"),
    emergencyContact: optionalText(PROFILE_EMERGENCY_CONTACT_MAX, "El nombre del contacto"),
    emergencyPhone: optionalPhone,
    /** The consent checkbox for appointment messages on WhatsApp: sent as "on" when checked, absent when not. */
    whatsappOptIn: z
      .string()
      .optional()
      .transform((value) => value === "on"),
  })
  .refine((input) => !input.whatsappOptIn || input.phone !== null, {
    path: ["whatsappOptIn"],
    message: WHATSAPP_NEEDS_PHONE,
  });

export type ProfileInput = z.infer<typeof profileSchema>;

/** What the page shows: phones already formatted for reading (+56 9 1234 5678). */
export interface ProfileDto {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  emergencyContact: string;
  emergencyPhone: string;
  /** Whether the patient agreed to WhatsApp messages about their appointments. */
  whatsappOptIn: boolean;
  updatedAt: string;
}

export type ProfileActionData = ActionResult<{ updatedAt: string }>;
