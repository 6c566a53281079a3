/**
 * Where a person's data lives and what each right does to it (Ley 21.719, ADR 037): every table of the schema that
 * holds data about a person, with the columns that name them, what an erasure ("supresión", art. 7) does to its rows,
 * and — for what the law makes the clinic keep — why and for how long. Access and portability (arts. 5, 9) export
 * every table listed here; `tests/integration/privacy-schema-walk.test.ts` walks the live schema and fails when a
 * table with a user id, patient id, e-mail or phone column is neither listed here nor declared impersonal.
 * Pure data and rules: the queries that find the rows are in `features/privacy/subject-data.server.ts`.
 */

import { clinicDate } from "./clinic-time";
import type { PrivacyRight } from "./privacy";

/** What an erasure does to a table's rows about the person. */
export type ErasureTreatment =
  /** The rows are deleted. */
  | "erase"
  /** The rows stay for the clinic's aggregate figures, with everything that identifies the person removed. */
  | "anonymise"
  /** The law makes the clinic keep them: kept, blocked (used for nothing else), and deleted when the term ends. */
  | "retain";

export type RetentionBasis = "clinical" | "tax" | "accountability";

/** Why and how long retained data is kept: the legal minimum, counted from the row's date. */
export const retentionBases: Record<RetentionBasis, { years: number; reason: string }> = {
  clinical: {
    years: 15,
    reason:
      "La ficha clínica y el registro de quién la consultó se conservan por al menos 15 años (Ley 20.584, art. 13).",
  },
  tax: {
    years: 6,
    reason:
      "Los pagos y sus devoluciones son respaldo contable y tributario: se conservan 6 años (Código Tributario, arts. 17 y 200).",
  },
  accountability: {
    years: 5,
    reason:
      "La constancia de las solicitudes de derechos, de los incidentes de seguridad y de las acciones del personal permite a la clínica demostrar que cumplió la ley ante la Agencia (Ley 21.719, arts. 14 ter y 14 sexies).",
  },
};

export interface PersonalTable {
  /** What the person reads in the export and in the answer to an erasure. */
  label: string;
  /** Columns that name the person the row is about (user id, patient id, e-mail, phone, RUT, a parent row's id). */
  subjectColumns: readonly string[];
  /** Person columns that name a staff member acting on the row, not the person it is about. */
  actorColumns?: readonly string[];
  /** Columns never exported: secrets (password hashes, tokens) and files. */
  secretColumns?: readonly string[];
  /** Columns named like a person's (an e-mail, a phone) that hold the clinic's own contact, not a person's. */
  clinicColumns?: readonly string[];
  erasure: ErasureTreatment;
  /** For `retain`: the legal basis and the column the term is counted from. */
  retention?: { basis: RetentionBasis; from: string };
}

/** Every table with data about a person, by its SQL name. */
export const personalTables = {
  users: {
    label: "Cuenta y perfil",
    subjectColumns: ["id", "email", "phone", "rut", "emergency_phone"],
    erasure: "anonymise",
  },
  sessions: {
    label: "Sesiones iniciadas",
    subjectColumns: ["user_id"],
    secretColumns: ["token"],
    erasure: "erase",
  },
  accounts: {
    label: "Formas de ingreso (contraseña, Google)",
    subjectColumns: ["user_id"],
    secretColumns: ["password", "access_token", "refresh_token", "id_token"],
    erasure: "erase",
  },
  verifications: {
    label: "Verificaciones de correo pendientes",
    subjectColumns: ["identifier"],
    secretColumns: ["value"],
    erasure: "erase",
  },
  two_factors: {
    label: "Verificación en dos pasos",
    subjectColumns: ["user_id"],
    secretColumns: ["secret", "backup_codes"],
    erasure: "erase",
  },
  sign_in_step_ups: {
    label: "Códigos de ingreso",
    subjectColumns: ["user_id"],
    secretColumns: ["challenge_hash", "code_hash"],
    erasure: "erase",
  },
  user_roles: { label: "Roles de la cuenta", subjectColumns: ["user_id"], erasure: "erase" },
  advisor_messages: {
    label: "Conversación con el asesor virtual",
    subjectColumns: ["user_id"],
    erasure: "erase",
  },
  analytics_settings: {
    label: "Ajustes de Analytics",
    subjectColumns: ["user_id"],
    erasure: "erase",
  },
  appointments: {
    label: "Citas",
    subjectColumns: ["patient_id", "dentalink_patient_id"],
    actorColumns: ["dentist_id", "no_show_marked_by"],
    erasure: "retain",
    retention: { basis: "clinical", from: "starts_at" },
  },
  appointment_reminders: {
    label: "Recordatorios de citas",
    subjectColumns: ["appointment_id"],
    erasure: "erase",
  },
  appointment_action_tokens: {
    label: "Enlaces para confirmar o cancelar citas",
    subjectColumns: ["appointment_id"],
    secretColumns: ["token_hash"],
    erasure: "erase",
  },
  dentist_schedule_blocks: {
    label: "Horario de atención",
    subjectColumns: ["dentist_id"],
    erasure: "erase",
  },
  audit_log: {
    label: "Registro de acciones sobre la cuenta",
    subjectColumns: ["target_user_id"],
    actorColumns: ["actor_id"],
    erasure: "retain",
    retention: { basis: "accountability", from: "created_at" },
  },
  chat_guests: {
    label: "Chat: identidad del visitante",
    subjectColumns: ["external_id", "email", "phone"],
    secretColumns: ["browser_key_hash"],
    erasure: "erase",
  },
  chat_rooms: {
    label: "Chat: conversaciones",
    subjectColumns: ["guest_id"],
    actorColumns: ["assigned_to"],
    erasure: "erase",
  },
  chat_messages: {
    label: "Chat: mensajes",
    subjectColumns: ["room_id"],
    actorColumns: ["staff_user_id"],
    erasure: "erase",
  },
  chat_refresh_tokens: {
    label: "Chat: credenciales del navegador",
    subjectColumns: ["guest_id"],
    secretColumns: ["token_hash"],
    erasure: "erase",
  },
  clinical_record_bindings: {
    label: "Vínculo de la cuenta con la ficha clínica",
    subjectColumns: ["user_id", "dentalink_patient_id", "rut"],
    erasure: "erase",
  },
  clinical_record_codes: {
    label: "Códigos para ver la ficha clínica",
    subjectColumns: ["user_id", "rut", "dentalink_patient_id"],
    secretColumns: ["code_hash"],
    erasure: "erase",
  },
  clinical_record_access: {
    label: "Registro de accesos a la ficha clínica",
    subjectColumns: ["rut", "dentalink_patient_id"],
    actorColumns: ["actor_id"],
    erasure: "retain",
    retention: { basis: "clinical", from: "created_at" },
  },
  leads: {
    label: "Solicitudes de contacto (formulario y asistente)",
    subjectColumns: ["email", "phone"],
    actorColumns: ["assigned_to"],
    erasure: "anonymise",
  },
  lead_history: {
    label: "Historial de las solicitudes de contacto",
    subjectColumns: ["lead_id", "inbound_message_id"],
    actorColumns: ["actor_id"],
    erasure: "erase",
  },
  staff_availability: {
    label: "Disponibilidad para recibir solicitudes",
    subjectColumns: ["user_id"],
    erasure: "erase",
  },
  dentalink_syncs: {
    label: "Envíos de datos a Dentalink",
    subjectColumns: ["lead_id", "patient_id"],
    actorColumns: ["actor_id"],
    erasure: "anonymise",
  },
  dentalink_mock_patients: {
    label: "Pacientes del sistema clínico de demostración",
    subjectColumns: ["record"],
    erasure: "erase",
  },
  dentalink_mock_appointments: {
    label: "Citas del sistema clínico de demostración",
    subjectColumns: ["record"],
    erasure: "erase",
  },
  dentalink_dentist_links: {
    label: "Vínculo con la agenda de Dentalink",
    subjectColumns: ["dentist_id"],
    actorColumns: ["updated_by"],
    erasure: "erase",
  },
  dentalink_patient_links: {
    label: "Vínculo con el paciente en Dentalink",
    subjectColumns: ["user_id", "dentalink_patient_id"],
    erasure: "erase",
  },
  outbox: {
    label: "Mensajes enviados (correo y WhatsApp)",
    subjectColumns: ["payload"],
    secretColumns: ["payload"],
    erasure: "anonymise",
  },
  charges: {
    label: "Cobros",
    subjectColumns: ["patient_id"],
    actorColumns: ["waived_by"],
    erasure: "retain",
    retention: { basis: "tax", from: "created_at" },
  },
  payments: {
    label: "Pagos",
    subjectColumns: ["patient_id"],
    secretColumns: ["token", "session_id"],
    erasure: "retain",
    retention: { basis: "tax", from: "created_at" },
  },
  payment_refunds: {
    label: "Devoluciones",
    subjectColumns: ["payment_id"],
    actorColumns: ["requested_by"],
    erasure: "retain",
    retention: { basis: "tax", from: "created_at" },
  },
  patient_deposit_flags: {
    label: "Exigencia de abono por inasistencias",
    subjectColumns: ["patient_id"],
    erasure: "erase",
  },
  privacy_requests: {
    label: "Solicitudes de derechos (Ley 21.719)",
    subjectColumns: ["user_id", "email", "phone", "rut"],
    actorColumns: ["decided_by"],
    erasure: "retain",
    retention: { basis: "accountability", from: "created_at" },
  },
  privacy_request_events: {
    label: "Historial de las solicitudes de derechos",
    subjectColumns: ["request_id"],
    actorColumns: ["actor_id"],
    erasure: "retain",
    retention: { basis: "accountability", from: "at" },
  },
  privacy_verifications: {
    label: "Verificaciones de las solicitudes de derechos",
    subjectColumns: ["request_id"],
    secretColumns: ["secret_hash"],
    erasure: "erase",
  },
  consents: {
    label: "Consentimientos",
    subjectColumns: ["user_id", "lead_id", "chat_guest_id", "email", "phone"],
    erasure: "erase",
  },
  privacy_restrictions: {
    label: "Oposiciones y bloqueos",
    subjectColumns: ["user_id", "email", "phone"],
    actorColumns: ["created_by"],
    erasure: "erase",
  },
  data_exports: {
    label: "Descargas de tus datos",
    subjectColumns: ["user_id"],
    secretColumns: ["file"],
    erasure: "erase",
  },
  privacy_incident_notices: {
    label: "Avisos de incidentes de seguridad",
    subjectColumns: ["user_id", "email", "phone"],
    erasure: "retain",
    retention: { basis: "accountability", from: "created_at" },
  },
  callback_requests: {
    label: "Solicitudes de llamada",
    subjectColumns: ["email", "phone", "user_id"],
    erasure: "erase",
  },
  rate_limits: {
    label: "Contadores de uso de formularios",
    subjectColumns: ["key"],
    erasure: "erase",
  },
  whatsapp_messages: {
    label: "Mensajes de WhatsApp enviados",
    subjectColumns: ["user_id", "lead_id", "appointment_id", "to_phone"],
    erasure: "anonymise",
  },
  whatsapp_contacts: {
    label: "Contacto de WhatsApp",
    subjectColumns: ["phone"],
    erasure: "erase",
  },
  whatsapp_inbound_messages: {
    label: "Mensajes de WhatsApp recibidos",
    subjectColumns: ["from_phone", "lead_id"],
    // The clinic's WhatsApp number the person wrote to.
    clinicColumns: ["to_phone"],
    erasure: "erase",
  },
  waitlist_entries: {
    label: "Lista de espera",
    subjectColumns: ["patient_id"],
    actorColumns: ["dentist_id"],
    erasure: "erase",
  },
  waitlist_offers: {
    label: "Avisos de horas liberadas",
    subjectColumns: ["patient_id"],
    actorColumns: ["sent_by"],
    secretColumns: ["token_hash"],
    erasure: "erase",
  },
  freed_slots: {
    label: "Horas liberadas por tus cancelaciones",
    subjectColumns: ["freed_by_patient_id"],
    actorColumns: ["dentist_id", "created_by"],
    // The slot stays for the clinic's refill figures; who freed it goes.
    erasure: "anonymise",
  },
  form_assignments: {
    label: "Formularios pendientes y sus borradores",
    subjectColumns: ["patient_id"],
    erasure: "erase",
  },
  form_submissions: {
    label: "Formularios de salud y consentimientos firmados",
    subjectColumns: ["patient_id"],
    secretColumns: ["signature_png", "pdf"],
    erasure: "retain",
    retention: { basis: "clinical", from: "submitted_at" },
  },
} as const satisfies Record<string, PersonalTable>;

export type PersonalTableName = keyof typeof personalTables;

/**
 * Tables with a person-like column that hold no data about the person it names, each with the reason: the schema walk
 * accepts them.
 */
export const impersonalTables: Record<string, string> = {
  roles: "los nombres de los roles",
  treatments: "el catálogo de tratamientos",
  treatment_deposits: "las reglas de abono por tratamiento; updated_by es el administrador que la cambió",
  lead_tallies: "conteos por nivel y estado, sin personas",
  job_runs: "las ejecuciones de las tareas diarias",
  clinic_settings: "los ajustes de la clínica; updated_by es el administrador que los cambió",
  privacy_incidents:
    "el registro de incidentes describe el hecho; las personas afectadas están en privacy_incident_notices",
};

/** The tables the person's export holds (access and portability: all of them). */
export function exportedTables(): PersonalTableName[] {
  return Object.keys(personalTables) as PersonalTableName[];
}

/** The erasure plan: which tables are deleted, anonymised and retained. */
export function erasurePlan(): Record<ErasureTreatment, PersonalTableName[]> {
  const plan: Record<ErasureTreatment, PersonalTableName[]> = { erase: [], anonymise: [], retain: [] };
  for (const name of exportedTables()) plan[personalTables[name].erasure].push(name);
  return plan;
}

/**
 * What a right does to the stored data: which tables it reads (`read`) and which it changes (`erase`,
 * `anonymise`), and which it keeps blocked (`retain`). Rectification, objection and blocking change no table here:
 * they are a correction staff make, or a restriction (`privacy_restrictions`).
 */
export function tablesAffectedBy(right: PrivacyRight): {
  read: PersonalTableName[];
  erase: PersonalTableName[];
  anonymise: PersonalTableName[];
  retain: PersonalTableName[];
} {
  const none = { read: [], erase: [], anonymise: [], retain: [] };
  switch (right) {
    case "acceso":
    case "portabilidad":
      return { ...none, read: exportedTables() };
    case "supresion":
      return { read: [], ...erasurePlan() };
    case "rectificacion":
    case "oposicion":
    case "decisiones_automatizadas":
    case "bloqueo":
      return none;
  }
}

/** The last day (UTC instant) a retained row dated `from` must be kept: its basis's years later. */
export function retainedUntil(basis: RetentionBasis, from: Date): Date {
  const until = new Date(from.getTime());
  until.setUTCFullYear(until.getUTCFullYear() + retentionBases[basis].years);
  return until;
}

/**
 * The same as the clinic calendar date a person is told ("YYYY-MM-DD", America/Santiago, DESIGN decision 8): a row
 * dated in the clinic's evening is already the next day in UTC, which is not the day it is kept until.
 */
export function retainedUntilDate(basis: RetentionBasis, from: Date): string {
  return clinicDate(retainedUntil(basis, from));
}
