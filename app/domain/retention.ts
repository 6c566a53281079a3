/**
 * How long each kind of personal data is kept (Ley 19.628 as amended by Ley 21.719, art. 3 principles of
 * proportionality and purpose: data are kept only as long as their purpose needs; ADR 038). ONE table: the daily
 * retention job (`features/privacy/retention-sweep.server.ts`), `npm run retention -- --dry-run` and the privacy
 * policy's table all read it. Where the law is silent the period is the shortest that still serves the purpose, and
 * the reason says why; where the law sets a minimum (clinical records, tax records) the data are kept at least that
 * long and the sweep never touches them. Pure.
 */
import { retentionBases } from "./privacy-data-map";

export type RetentionUnit = "hours" | "days" | "months" | "years";

export interface RetentionPeriod {
  amount: number;
  unit: RetentionUnit;
}

/**
 * What happens when the period is over: `delete` the row; `anonymise` it (the row stays for counts, without anything
 * that identifies the person); `keep` — a legal minimum the sweep never shortens (no automatic deletion: the
 * clinic reviews those rows by hand once the minimum has passed).
 */
export type RetentionAction = "delete" | "anonymise" | "keep";

export interface RetentionRule {
  /** Stable key, used in counts, logs and the job's summary. */
  key: string;
  /** The database table the rule applies to. */
  table: string;
  /** What the data are, in Spanish (the privacy policy's first column). */
  label: string;
  period: RetentionPeriod;
  /** From when the period runs, in Spanish ("desde el último mensaje"). */
  from: string;
  action: RetentionAction;
  /** Why this period, in Spanish: the purpose it serves or the law that sets it. */
  reason: string;
}

const days = (amount: number): RetentionPeriod => ({ amount, unit: "days" });
const months = (amount: number): RetentionPeriod => ({ amount, unit: "months" });
const years = (amount: number): RetentionPeriod => ({ amount, unit: "years" });

/**
 * The periods. Chosen where the issue and the law are silent (ADR 038), always the shortest that serves:
 *
 * - Leads: a sales conversation rarely outlives a year; after 12 months without activity the contact data go and the
 *   row stays anonymous for the funnel's counts (treatment, urgency, budget, stage — nothing that identifies).
 * - Chat and advisor transcripts: the website chat is anonymous and answered within days (6 months covers a
 *   complaint about an answer); the portal advisor is the account holder's own history (12 months).
 * - WhatsApp bodies (outbound text and template placeholders, inbound text): they may carry health details; the
 *   delivery facts stay (status, times, purpose) for the message log, the body is cleared after 6 months.
 * - Outbox payloads hold the address and text of a message already delivered: cleared 30 days after the outcome
 *   (enough to look into a delivery complaint), the bare row (no contact data) deleted after 12 months.
 * - Security rows (sessions, one-time codes, tokens, rate-limit windows) are useless once expired; a short margin
 *   (1 to 30 days) helps investigate abuse.
 * - Audit rows, closed rights requests, ended objections, withdrawn consents and closed breach records are the
 *   clinic's proof that it respected the person's rights: 5 years, the term of the civil actions of art. 47 of
 *   Ley 19.628 as amended.
 * - Exports: 7 days (the issue); unverified requests: 30 days (their link lives far less; the margin shows abuse).
 * - Legal minimums, never shortened: the clinical-record access register and appointments (part of the clinical
 *   record) 15 years (Ley 20.584 art. 13); charges, payments and refunds 6 years (Código Tributario art. 17 inc. 2:
 *   books and their documents are kept while the SII may review them; art. 200: 3 years, 6 when a return was not
 *   filed or was false — we keep the longer).
 */
export const retentionRules = [
  {
    key: "leads",
    table: "leads",
    label: "Solicitudes de contacto y evaluación (leads)",
    period: months(12),
    from: "desde la última actividad",
    action: "anonymise",
    reason:
      "Sirven para responderte y coordinar tu evaluación. Después se borran nombre, teléfono, correo y mensaje; queda una fila anónima para las estadísticas.",
  },
  {
    key: "callback_requests",
    table: "callback_requests",
    label: "Solicitudes de llamada",
    period: months(12),
    from: "desde la solicitud",
    action: "delete",
    reason: "Sirven para devolverte el llamado; un año basta para atender cualquier consulta posterior.",
  },
  {
    key: "chat_rooms",
    table: "chat_rooms",
    label: "Conversaciones del chat del sitio",
    period: months(6),
    from: "desde el último mensaje",
    action: "delete",
    reason: "Sirven para responderte y para revisar una respuesta si lo pides.",
  },
  {
    key: "chat_guests",
    table: "chat_guests",
    label: "Visitantes del chat sin cuenta",
    period: months(6),
    from: "desde la última actividad, sin conversaciones",
    action: "delete",
    reason: "Sin conversaciones, el visitante del chat ya no tiene uso.",
  },
  {
    key: "advisor_messages",
    table: "advisor_messages",
    label: "Conversaciones con el asesor virtual del portal",
    period: months(12),
    from: "desde cada mensaje",
    action: "delete",
    reason: "Es tu historial con el asesor, visible en tu cuenta; un año cubre un ciclo de tratamiento.",
  },
  {
    key: "whatsapp_bodies",
    table: "whatsapp_messages",
    label: "Texto de los mensajes de WhatsApp enviados",
    period: months(6),
    from: "desde el envío",
    action: "anonymise",
    reason:
      "El texto puede contener detalles de salud. Se borra; quedan la fecha, el propósito y el estado de entrega.",
  },
  {
    key: "whatsapp_inbound_bodies",
    table: "whatsapp_inbound_messages",
    label: "Texto de los mensajes de WhatsApp recibidos",
    period: months(6),
    from: "desde la recepción",
    action: "anonymise",
    reason: "El texto puede contener detalles de salud. Se borran el texto y el nombre de perfil.",
  },
  {
    key: "lead_history_bodies",
    table: "lead_history",
    label: "Mensajes de WhatsApp copiados al historial de un lead",
    period: months(6),
    from: "desde la recepción",
    action: "anonymise",
    reason: "La copia sigue el plazo del mensaje original.",
  },
  {
    key: "whatsapp_contacts",
    table: "whatsapp_contacts",
    label: "Ventana de conversación de WhatsApp",
    period: days(30),
    from: "desde tu último mensaje",
    action: "delete",
    reason: "Solo se necesita para saber si podemos responderte dentro de las 24 horas de WhatsApp.",
  },
  {
    key: "outbox_rows",
    table: "outbox",
    label: "Registro de envíos (sin destinatario ni texto)",
    period: months(12),
    from: "desde el envío",
    action: "delete",
    reason: "Evita repetir un envío y permite revisar fallas de entrega.",
  },
  {
    key: "outbox_payloads",
    table: "outbox",
    label: "Contenido de correos y mensajes ya enviados (cola de envío)",
    period: days(30),
    from: "desde el envío o el fallo definitivo",
    action: "anonymise",
    reason: "Sirve para revisar un reclamo de entrega; luego se borran destinatario y texto.",
  },
  {
    key: "dentalink_syncs",
    table: "dentalink_syncs",
    label: "Registro de envíos de pacientes a Dentalink",
    period: months(12),
    from: "desde el envío",
    action: "delete",
    reason: "Permite revisar un error de sincronización; los datos quedan en la ficha de Dentalink.",
  },
  {
    key: "sessions",
    table: "sessions",
    label: "Sesiones del portal (dirección IP y navegador)",
    period: days(30),
    from: "desde que vencen",
    action: "delete",
    reason: "Permiten investigar un acceso indebido reciente a tu cuenta.",
  },
  {
    key: "verifications",
    table: "verifications",
    label: "Enlaces de confirmación de correo y de cambio de contraseña",
    period: days(1),
    from: "desde que vencen",
    action: "delete",
    reason: "Un enlace vencido no sirve para nada.",
  },
  {
    key: "sign_in_step_ups",
    table: "sign_in_step_ups",
    label: "Códigos de verificación al iniciar sesión",
    period: days(1),
    from: "desde que vencen",
    action: "delete",
    reason: "Un código vencido no sirve para nada.",
  },
  {
    key: "clinical_record_codes",
    table: "clinical_record_codes",
    label: "Códigos para vincular tu ficha clínica",
    period: days(30),
    from: "desde que vencen",
    action: "delete",
    reason: "Permiten detectar intentos de vincular una ficha ajena.",
  },
  {
    key: "appointment_action_tokens",
    table: "appointment_action_tokens",
    label: "Enlaces de confirmar o cancelar una cita",
    period: days(30),
    from: "desde que vencen",
    action: "delete",
    reason: "Un enlace vencido no sirve; el margen permite responder dudas sobre su uso.",
  },
  {
    key: "chat_refresh_tokens",
    table: "chat_refresh_tokens",
    label: "Credenciales del chat",
    period: days(1),
    from: "desde que vencen",
    action: "delete",
    reason: "Una credencial vencida no sirve para nada.",
  },
  {
    key: "rate_limits",
    table: "rate_limits",
    label: "Contadores de intentos (límites de uso)",
    period: days(1),
    from: "desde el inicio de cada ventana",
    action: "delete",
    reason: "Solo protegen contra abusos mientras dura su ventana.",
  },
  {
    key: "privacy_verifications",
    table: "privacy_verifications",
    label: "Enlaces y códigos para acreditar una solicitud de derechos",
    period: days(30),
    from: "desde que vencen",
    action: "delete",
    reason: "Permiten detectar intentos de ejercer derechos sobre datos ajenos.",
  },
  {
    key: "privacy_requests_unverified",
    table: "privacy_requests",
    label: "Solicitudes de derechos nunca acreditadas",
    period: days(30),
    from: "desde la solicitud",
    action: "delete",
    reason: "Sin acreditar el control del correo o teléfono, la solicitud no se tramita.",
  },
  {
    key: "data_exports",
    table: "data_exports",
    label: "Descargas de tus datos (archivo ZIP)",
    period: days(7),
    from: "desde que están listas",
    action: "delete",
    reason: "Quedan disponibles 7 días para que las descargues.",
  },
  {
    key: "privacy_requests_closed",
    table: "privacy_requests",
    label: "Solicitudes de derechos resueltas y su historial",
    period: years(retentionBases.accountability.years),
    from: "desde la respuesta",
    action: "delete",
    reason:
      "Prueban que respondimos tu solicitud, ante un reclamo a la Agencia o una acción civil (5 años, art. 47 de la Ley N° 19.628).",
  },
  {
    key: "privacy_restrictions",
    table: "privacy_restrictions",
    label: "Oposiciones y bloqueos terminados",
    period: years(retentionBases.accountability.years),
    from: "desde su término",
    action: "delete",
    reason: "Prueban que respetamos tu oposición o bloqueo mientras estuvo vigente.",
  },
  {
    key: "consents",
    table: "consents",
    label: "Consentimientos retirados",
    period: years(retentionBases.accountability.years),
    from: "desde el retiro",
    action: "delete",
    reason: "Prueban que cada tratamiento tuvo tu consentimiento mientras duró.",
  },
  {
    key: "audit_log",
    table: "audit_log",
    label: "Registro de auditoría de acciones del personal",
    period: years(retentionBases.accountability.years),
    from: "desde cada acción",
    action: "delete",
    reason: "Permite demostrar quién hizo qué con tus datos, ante la Agencia o un tribunal.",
  },
  {
    key: "privacy_incidents",
    table: "privacy_incidents",
    label: "Registro de incidentes de seguridad cerrados y sus avisos",
    period: years(retentionBases.accountability.years),
    from: "desde el cierre",
    action: "delete",
    reason: "Registro de vulneraciones exigido por el art. 14 sexies de la Ley N° 19.628.",
  },
  {
    key: "form_drafts",
    table: "form_assignments",
    label: "Borradores de formularios no enviados",
    period: days(90),
    from: "desde la cita",
    action: "delete",
    reason:
      "Un borrador sirve para terminar el formulario antes de la cita; 90 días después ya no tiene uso.",
  },
  {
    key: "waitlist_entries",
    table: "waitlist_entries",
    label: "Lista de espera",
    period: months(6),
    from: "desde que termina (tomada, retirada o vencida)",
    action: "delete",
    reason: "Sirve para avisarte de una hora libre; seis meses cubren cualquier consulta sobre un aviso.",
  },
  {
    key: "waitlist_offers",
    table: "waitlist_offers",
    label: "Avisos de horas liberadas",
    period: months(6),
    from: "desde el aviso",
    action: "delete",
    reason: "Sirven para tomar la hora ofrecida; seis meses cubren cualquier consulta sobre un aviso.",
  },
  {
    key: "clinical_record_access",
    table: "clinical_record_access",
    label: "Registro de accesos a tu ficha clínica",
    period: years(retentionBases.clinical.years),
    from: "desde cada acceso",
    action: "keep",
    reason:
      "Forma parte de la ficha clínica: se conserva al menos 15 años (Ley N° 20.584, art. 13). Nunca se borra antes.",
  },
  {
    key: "appointments",
    table: "appointments",
    label: "Citas y atenciones",
    period: years(retentionBases.clinical.years),
    from: "desde la atención",
    action: "keep",
    reason: "Forman parte de la ficha clínica: al menos 15 años (Ley N° 20.584, art. 13).",
  },
  {
    key: "form_submissions",
    table: "form_submissions",
    label: "Formularios de salud y consentimientos informados firmados",
    period: years(retentionBases.clinical.years),
    from: "desde la firma",
    action: "keep",
    reason:
      "Forman parte de la ficha clínica (Ley N° 20.584, arts. 13 y 14): se conservan al menos 15 años. Nunca se borran antes.",
  },
  {
    key: "charges",
    table: "charges",
    label: "Cobros",
    period: years(retentionBases.tax.years),
    from: "desde el cobro",
    action: "keep",
    reason:
      "Respaldo tributario: se conserva mientras el SII pueda revisar (Código Tributario, arts. 17 y 200: hasta 6 años).",
  },
  {
    key: "payments",
    table: "payments",
    label: "Pagos en línea",
    period: years(retentionBases.tax.years),
    from: "desde el pago",
    action: "keep",
    reason: "Respaldo tributario (Código Tributario, arts. 17 y 200: hasta 6 años).",
  },
  {
    key: "payment_refunds",
    table: "payment_refunds",
    label: "Reembolsos",
    period: years(retentionBases.tax.years),
    from: "desde el reembolso",
    action: "keep",
    reason: "Respaldo tributario (Código Tributario, arts. 17 y 200: hasta 6 años).",
  },
] as const satisfies readonly RetentionRule[];

export type RetentionKey = (typeof retentionRules)[number]["key"];

/** The rules the sweep applies (the legal minimums are only reported). */
export const sweptRules = retentionRules.filter((rule) => rule.action !== "keep");

export function retentionRule(key: RetentionKey): RetentionRule {
  const rule = retentionRules.find((candidate) => candidate.key === key);
  if (!rule) throw new RangeError(`Sin regla de conservación: ${key}`);
  return rule;
}

const DAY_MS = 86_400_000;

/** Months back from an instant on the UTC calendar, the day clamped to the month's last (31 March − 1 → 28/29 Feb). */
function monthsBefore(instant: Date, count: number): Date {
  const year = instant.getUTCFullYear();
  const month = instant.getUTCMonth() - count;
  const target = new Date(
    Date.UTC(
      year,
      month,
      1,
      instant.getUTCHours(),
      instant.getUTCMinutes(),
      instant.getUTCSeconds(),
      instant.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(instant.getUTCDate(), lastDay));
  return target;
}

/** The instant `period` before `now`: rows whose anchor is before it are past their period. */
export function periodStart(period: RetentionPeriod, now: Date): Date {
  switch (period.unit) {
    case "hours":
      return new Date(now.getTime() - period.amount * 3_600_000);
    case "days":
      return new Date(now.getTime() - period.amount * DAY_MS);
    case "months":
      return monthsBefore(now, period.amount);
    case "years":
      return monthsBefore(now, period.amount * 12);
  }
}

/** The cut-off of a rule at `now`: a row whose period started (its anchor) before this instant is past its period. */
export function retentionCutoff(rule: Pick<RetentionRule, "period">, now: Date): Date {
  return periodStart(rule.period, now);
}

/** Whether a row whose period runs from `anchor` is past it at `now` (exactly at the cut-off it is still inside). */
export function isPastRetention(rule: Pick<RetentionRule, "period">, anchor: Date, now: Date): boolean {
  return anchor.getTime() < retentionCutoff(rule, now).getTime();
}

/** Every rule's cut-off at `now`, by key. */
export function retentionCutoffs(now: Date): Record<RetentionKey, Date> {
  return Object.fromEntries(retentionRules.map((rule) => [rule.key, retentionCutoff(rule, now)])) as Record<
    RetentionKey,
    Date
  >;
}

const UNIT_WORDS: Record<RetentionUnit, [string, string]> = {
  hours: ["hora", "horas"],
  days: ["día", "días"],
  months: ["mes", "meses"],
  years: ["año", "años"],
};

/** "30 días", "12 meses", "1 año". */
export function periodText(period: RetentionPeriod): string {
  const [one, many] = UNIT_WORDS[period.unit];
  return `${period.amount} ${period.amount === 1 ? one : many}`;
}

const ACTION_TEXT: Record<RetentionAction, string> = {
  delete: "Se elimina",
  anonymise: "Se anonimiza",
  keep: "Se conserva al menos este plazo",
};

/** What happens at the end, in Spanish. */
export function retentionActionText(action: RetentionAction): string {
  return ACTION_TEXT[action];
}

/** The text that replaces a message body whose period ended (the row stays for the log). */
export const REDACTED_BODY = "(contenido eliminado al cumplir su plazo de conservación)";

/** The name an anonymised lead keeps. */
export const ANONYMISED_NAME = "Persona anonimizada";
