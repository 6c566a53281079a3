/**
 * The one registry of the WhatsApp templates the portal sends. Outside the 24-hour customer-care window
 * WhatsApp takes only templates the clinic's account has had approved (Infobip → Meta, category Utility, language
 * `es`); each entry is the name to register, its placeholders in order ({{1}}, {{2}}…) and the body to submit. Every
 * production message carries its free text and one of these as the fallback (`whatsapp-window.ts` picks at send
 * time). Reminders register theirs here too. A body that states a rule (the cancellation fee, a code's lifetime)
 * takes the words from the rule's module, so the approved text and the rule cannot drift apart.
 */

import { cancellationWording } from "./appointment-policy";
import { PRIVACY_CODE_LIFETIME } from "./privacy-verification";
import { RECORD_CODE_LIFETIME } from "./record-code";

export interface WhatsAppTemplateDefinition {
  /** The template's name at Infobip (lowercase and underscores, as Meta requires). */
  name: string;
  /** What each placeholder holds, in order: {{1}} is the first. */
  placeholders: readonly string[];
  /** The body to submit for approval (Spanish, es-CL). */
  body: string;
  /**
   * The placeholders that carry a secret (a one-time code, a single-use link), by their number in the body ({{4}}
   * is 4): never stored or shown in clear (`separateSecrets`), only sent.
   */
  secret?: readonly number[];
}

export const whatsAppTemplates = {
  leadAdvisor: {
    name: "lead_aviso_asesor",
    placeholders: ["origen", "nombre", "teléfono", "tratamiento", "nivel", "puntaje"],
    body: "Nuevo lead ({{1}}). Nombre: {{2}}. Teléfono: {{3}}. Tratamiento: {{4}}. Nivel: {{5}} ({{6}} puntos).",
  },
  leadPatient: {
    name: "lead_confirmacion_paciente",
    placeholders: ["nombre", "tratamiento", "compromiso de contacto", "horario", "clínica"],
    body: "Hola {{1}}, recibimos tu consulta sobre {{2}}. Un asesor {{3}} (horario de atención: {{4}}). {{5}}.",
  },
  appointmentBookedPatient: {
    name: "cita_agendada_paciente",
    placeholders: ["nombre", "tratamiento", "dentista", "fecha", "hora", "clínica"],
    body: "Hola {{1}}, tu cita de {{2}} con {{3}} quedó agendada para el {{4}} a las {{5}}. {{6}}.",
  },
  appointmentRescheduledPatient: {
    name: "cita_reprogramada_paciente",
    placeholders: ["nombre", "tratamiento", "dentista", "fecha", "hora", "clínica"],
    body: "Hola {{1}}, tu cita de {{2}} con {{3}} fue reprogramada para el {{4}} a las {{5}}. {{6}}.",
  },
  appointmentCancelledPatient: {
    name: "cita_cancelada_paciente",
    placeholders: ["nombre", "tratamiento", "dentista", "fecha", "hora", "clínica"],
    body: "Hola {{1}}, tu cita de {{2}} con {{3}} del {{4}} a las {{5}} fue cancelada. {{6}}.",
  },
  appointmentBookedClinic: {
    name: "cita_agendada_clinica",
    placeholders: ["paciente", "teléfono", "tratamiento", "dentista", "fecha", "hora"],
    body: "Nueva cita agendada en línea. Paciente: {{1}} ({{2}}). Tratamiento: {{3}}, con {{4}}. Fecha: {{5}} a las {{6}}.",
  },
  appointmentRescheduledClinic: {
    name: "cita_reprogramada_clinica",
    placeholders: [
      "paciente",
      "teléfono",
      "tratamiento",
      "dentista",
      "fecha anterior",
      "hora anterior",
      "fecha nueva",
      "hora nueva",
    ],
    body: "Cita reprogramada en línea. Paciente: {{1}} ({{2}}). Tratamiento: {{3}}, con {{4}}. Antes: {{5}} a las {{6}}. Ahora: {{7}} a las {{8}}.",
  },
  appointmentCancelledClinic: {
    name: "cita_cancelada_clinica",
    placeholders: ["paciente", "teléfono", "tratamiento", "dentista", "fecha", "hora", "cargo"],
    body: "Cita cancelada en línea. Paciente: {{1}} ({{2}}). Tratamiento: {{3}}, con {{4}}. Fecha: {{5}} a las {{6}}. Cargo por cancelación tardía: {{7}}.",
  },
  appointmentReminder: {
    name: "recordatorio_cita",
    placeholders: [
      "nombre",
      "fecha",
      "hora",
      "enlace Confirmar",
      "enlace Cancelar",
      "enlace Necesito hablar con alguien",
    ],
    secret: [4, 5, 6],
    body:
      "Hola {{1}}, te recordamos tu cita en la clínica el {{2}} a las {{3}}. " +
      "Para confirmarla abre este enlace: {{4}} . Si no puedes asistir, cancélala aquí: {{5}} . " +
      "Si necesitas hablar con alguien de la clínica, pídelo aquí y te llamamos: {{6}} . " +
      cancellationWording.lateFeeNotice,
  },
  /** The 48 h step of the reminder sequence (issue 23). */
  appointmentReminderEarly: {
    name: "recordatorio_cita_48h",
    placeholders: ["nombre", "fecha", "hora", "clínica"],
    body: "Hola {{1}}, te recordamos que tienes una cita en la clínica el {{2}} a las {{3}}. Un día antes te pediremos confirmarla. {{4}}.",
  },
  /** The 48 h step when the appointment has forms still to fill. */
  appointmentReminderEarlyForms: {
    name: "recordatorio_cita_48h_formularios",
    placeholders: ["nombre", "fecha", "hora", "enlace Formularios", "clínica"],
    body: "Hola {{1}}, te recordamos que tienes una cita en la clínica el {{2}} a las {{3}}. Antes de venir, completa tus formularios aquí: {{4}} . {{5}}.",
  },
  /** The 2 h step ("te esperamos"), also for confirmed appointments. */
  appointmentReminderSameDay: {
    name: "recordatorio_cita_2h",
    placeholders: ["nombre", "fecha", "hora", "dirección"],
    body: "Hola {{1}}, te esperamos el {{2}} a las {{3}} en {{4}}. Si te retrasas o no puedes venir, avísanos respondiendo este mensaje.",
  },
  paymentReceived: {
    name: "pago_recibido",
    placeholders: ["nombre", "monto", "concepto", "clínica"],
    body: "Hola {{1}}, recibimos tu pago de {{2}} por {{3}}. Puedes descargar tu comprobante en Mis Pagos. {{4}}.",
  },
  refundIssued: {
    name: "reembolso_emitido",
    placeholders: ["nombre", "monto", "concepto", "clínica"],
    body: "Hola {{1}}, emitimos un reembolso de {{2}} por {{3}} a la tarjeta con que pagaste. Según tu banco, puede tardar algunos días en verse. {{4}}.",
  },
  feePending: {
    name: "cargo_pendiente",
    placeholders: ["nombre", "monto", "concepto", "enlace"],
    body: "Hola {{1}}, tienes un cargo pendiente de {{2}} por {{3}}. Puedes pagarlo en línea aquí: {{4}} .",
  },
  clinicalRecordCode: {
    name: "codigo_acceso_ficha",
    placeholders: ["código"],
    secret: [1],
    body: `Tu código de acceso a tu ficha clínica es {{1}}. Vence en ${RECORD_CODE_LIFETIME}. No lo compartas con nadie.`,
  },
  privacyRequestCode: {
    name: "codigo_solicitud_datos",
    placeholders: ["código"],
    secret: [1],
    body: `Tu código para confirmar tu solicitud sobre tus datos personales es {{1}}. Vence en ${PRIVACY_CODE_LIFETIME}. Si no la hiciste, ignora este mensaje.`,
  },
  privacyRequestNotice: {
    name: "aviso_solicitud_datos",
    placeholders: ["nombre", "número de solicitud", "mensaje"],
    body: "Hola {{1}}, sobre tu solicitud de datos personales N.º {{2}}: {{3}} Si tienes dudas, llama a la clínica.",
  },
  waitlistOffer: {
    name: "oferta_lista_espera",
    placeholders: ["nombre", "tratamiento", "dentista", "fecha", "hora", "enlace"],
    secret: [6],
    body:
      "Hola {{1}}, se liberó una hora de {{2}} con {{3}} el {{4}} a las {{5}}. " +
      "Si la quieres, tómala aquí: {{6}} . Se la queda la primera persona que la tome.",
  },
} as const satisfies Record<string, WhatsAppTemplateDefinition>;

export type WhatsAppTemplateKey = keyof typeof whatsAppTemplates;

/** A template as a message carries it: its name and the placeholder values in order. */
export interface WhatsAppTemplateContent {
  name: string;
  placeholders: string[];
}

/**
 * Meta refuses a placeholder value that is empty or holds a newline, a tab or more than four spaces in a row: each
 * value is put on one line, trimmed, and an empty one becomes "-".
 */
export function placeholderValue(value: string | number): string {
  const flat = String(value).replace(/\s+/g, " ").trim();
  return flat === "" ? "-" : flat;
}

/** The template `key` filled with `values`, one per placeholder in the registry's order. */
export function templateContent(
  key: WhatsAppTemplateKey,
  values: ReadonlyArray<string | number>,
): WhatsAppTemplateContent {
  const template = whatsAppTemplates[key];
  if (values.length !== template.placeholders.length) {
    throw new Error(
      `template ${template.name}: ${template.placeholders.length} placeholders expected, ${values.length} given`,
    );
  }
  return { name: template.name, placeholders: values.map(placeholderValue) };
}

/** The body a template sends, filled in (what the recipient reads; the fake provider and tests use it). */
export function renderTemplate(key: WhatsAppTemplateKey, placeholders: readonly string[]): string {
  return whatsAppTemplates[key].body.replace(
    /\{\{(\d+)\}\}/g,
    (match, index: string) => placeholders[Number(index) - 1] ?? match,
  );
}

/** What a secret placeholder becomes wherever a message is stored, logged or shown. */
export const REDACTED_PLACEHOLDER = "[oculto]";

const secretIndexesByName = new Map<string, readonly number[]>(
  Object.values(whatsAppTemplates as Record<string, WhatsAppTemplateDefinition>).map((template) => [
    template.name,
    (template.secret ?? []).map((position) => position - 1),
  ]),
);

/** Secret placeholder values by their index (0-based) in the template's placeholders. */
export type TemplateSecrets = Record<string, string>;

/**
 * Splits a template into what may be stored (its secret placeholders replaced by `REDACTED_PLACEHOLDER`) and the
 * secret values apart (null when it has none), by the registry's `secret` marks.
 */
export function separateSecrets(content: WhatsAppTemplateContent): {
  stored: WhatsAppTemplateContent;
  secrets: TemplateSecrets | null;
} {
  const indexes = (secretIndexesByName.get(content.name) ?? []).filter(
    (index) => index < content.placeholders.length,
  );
  if (indexes.length === 0) return { stored: content, secrets: null };
  const secrets: TemplateSecrets = {};
  for (const index of indexes) secrets[index] = content.placeholders[index]!;
  return {
    stored: {
      name: content.name,
      placeholders: content.placeholders.map((value, index) =>
        indexes.includes(index) ? REDACTED_PLACEHOLDER : value,
      ),
    },
    secrets,
  };
}

/** Whether the template named `name` has placeholders that must not be stored in clear. */
export function hasSecretPlaceholders(name: string): boolean {
  return (secretIndexesByName.get(name)?.length ?? 0) > 0;
}

/**
 * The placeholders to send: the stored ones with the secret values put back. Null when a secret is missing (the
 * message must not go out with `[oculto]` in it).
 */
export function restoreSecrets(
  name: string,
  stored: readonly string[],
  secrets: TemplateSecrets | null | undefined,
): string[] | null {
  const indexes = (secretIndexesByName.get(name) ?? []).filter((index) => index < stored.length);
  const restored = [...stored];
  for (const index of indexes) {
    const value = secrets?.[index];
    if (typeof value !== "string") return null;
    restored[index] = value;
  }
  return restored;
}
