/**
 * The vocabulary of the privacy centre (Ley 21.719, ADR 037): the rights a person can exercise, the states of a
 * request, the purposes a consent is asked for and the restrictions that stop processing. The database's check
 * constraints are built from these lists, so a value exists in one place.
 */

/** The rights of Ley 19.628 as amended by Ley 21.719 (arts. 5–8 ter). */
export const privacyRights = [
  "acceso",
  "portabilidad",
  "rectificacion",
  "supresion",
  "oposicion",
  "decisiones_automatizadas",
  "bloqueo",
] as const;
export type PrivacyRight = (typeof privacyRights)[number];

/**
 * A request's life: `unverified` until the person proves control of the e-mail or phone (public entry only);
 * `received` (the legal clock runs from then), `in_progress`, then one of the outcomes. `expired`: the proof of
 * control never came.
 */
export const privacyRequestStatuses = [
  "unverified",
  "received",
  "in_progress",
  "approved",
  "partially_approved",
  "refused",
  "withdrawn",
  "expired",
] as const;
export type PrivacyRequestStatus = (typeof privacyRequestStatuses)[number];

/** Where a request came from: a signed-in account, the public form, or staff on the person's behalf. */
export const privacyRequestChannels = ["cuenta", "publico", "clinica"] as const;
export type PrivacyRequestChannel = (typeof privacyRequestChannels)[number];

/** How control of the contact was proven. */
export const privacyVerificationMethods = ["session", "email", "whatsapp"] as const;
export type PrivacyVerificationMethod = (typeof privacyVerificationMethods)[number];

/** The purposes a consent is asked for; the texts and their versions live in `consent-texts.ts`. */
export const consentPurposes = ["datos_contacto", "recordatorios_whatsapp", "marketing", "chat_ia"] as const;
export type ConsentPurpose = (typeof consentPurposes)[number];

/** Where a consent was given or withdrawn. */
export const consentChannels = [
  "formulario_web",
  "asistente",
  "registro",
  "perfil",
  "mis_datos",
  "chat",
  "whatsapp",
  "clinica",
  "solicitud",
  "migracion",
] as const;
export type ConsentChannel = (typeof consentChannels)[number];

/**
 * What stops processing of a person's data without erasing it: an objection to profiling (art. 8 bis), an objection
 * to marketing (art. 8), and blocking while a request is decided or for retained data (art. 8 ter).
 */
export const privacyRestrictionKinds = ["perfilamiento", "marketing", "bloqueo"] as const;
export type PrivacyRestrictionKind = (typeof privacyRestrictionKinds)[number];

/** A background export of a person's data. */
export const dataExportStatuses = ["queued", "running", "ready", "failed", "expired"] as const;
export type DataExportStatus = (typeof dataExportStatuses)[number];

export const privacyIncidentStatuses = ["open", "closed"] as const;
export type PrivacyIncidentStatus = (typeof privacyIncidentStatuses)[number];
