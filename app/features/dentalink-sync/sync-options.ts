import type { Treatment } from "~/domain/lead-scoring";

/** The sync form's choices and texts (ADR 019; client-safe, no zod). */

export const syncTreatmentTypes = [
  "consulta",
  "limpieza",
  "implantes",
  "estetica",
  "ortodoncia",
  "endodoncia",
  "cirugia",
  "periodoncia",
] as const;
export type SyncTreatmentType = (typeof syncTreatmentTypes)[number];

export const syncTreatmentLabels: Record<SyncTreatmentType, string> = {
  consulta: "Consulta general",
  limpieza: "Limpieza dental",
  implantes: "Implantes dentales",
  estetica: "Estética dental",
  ortodoncia: "Ortodoncia",
  endodoncia: "Endodoncia",
  cirugia: "Cirugía oral",
  periodoncia: "Periodoncia",
};

/** The appointment time choices. */
export const syncAppointmentTimes = [
  "09:00",
  "09:30",
  "10:00",
  "10:30",
  "11:00",
  "11:30",
  "14:00",
  "14:30",
  "15:00",
  "15:30",
  "16:00",
  "16:30",
  "17:00",
] as const;

/** A lead's treatment (landing form) as the sync form's treatment type; the general evaluation is a consultation. */
export const syncTreatmentForLead: Record<Treatment, SyncTreatmentType> = {
  implantes: "implantes",
  estetica: "estetica",
  ortodoncia: "ortodoncia",
  evaluacion: "consulta",
};

/** The product's texts, verbatim (it accents "Teléfono"). */
export const SYNC_REQUIRED_MESSAGES = {
  firstName: "Nombre es requerido",
  lastName: "Apellido es requerido",
  email: "Email es requerido",
  phone: "Teléfono es requerido",
  birthDate: "Fecha de nacimiento es requerida",
  treatmentType: "Tipo de tratamiento es requerido",
  appointmentDate: "Fecha de cita es requerida",
  appointmentTime: "Hora de cita es requerida",
  dentistId: "Dentista es requerido",
} as const;

export const SYNC_OVERALL_MESSAGE = "Por favor complete todos los campos requeridos";
export const SYNC_PAST_DATE_MESSAGE = "La fecha de cita no puede ser anterior a hoy";

/** The product's failure texts (its spec's "Dentallink" is a misspelling of the vendor's name). */
export const SYNC_FAILURE_MESSAGE = "Error al sincronizar con Dentalink";
export const SYNC_UNEXPECTED_MESSAGE = "Error inesperado al procesar la solicitud";
export const SYNC_CONNECTION_ERROR = "Error de conexión";
export const SYNC_DUPLICATE_ERROR = "Datos duplicados";
export const SYNC_SYSTEM_ERROR = "Error de sistema";
export const SYNC_SUCCESS_TITLE = "Sincronización Exitosa";

/** The form's fields in the order they are shown (and their errors listed). */
export const syncFormFields = [
  "firstName",
  "lastName",
  "rut",
  "email",
  "phone",
  "birthDate",
  "address",
  "city",
  "treatmentType",
  "appointmentDate",
  "appointmentTime",
  "dentistId",
  "insuranceProvider",
  "emergencyContact",
  "medicalHistory",
  "notes",
] as const;
export type SyncFormField = (typeof syncFormFields)[number];

export const SYNC_INTENT = "dentalink-sync";
/** An admin links one of our dentists to a Dentalink dentist (or leaves it unlinked). */
export const DENTIST_LINK_INTENT = "dentalink-dentist-link";
/** Staff put a failed or waiting write-through back in the queue now. */
export const WRITE_THROUGH_RETRY_INTENT = "dentalink-writethrough-retry";
/** The links' choice that means "no Dentalink dentist". */
export const NO_DENTALINK_DENTIST = "";
