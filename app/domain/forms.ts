/**
 * Intake and consent forms (issue 23, DESIGN decision 23): their vocabulary. Pure.
 */

/** 'Antecedentes de salud' (every first visit) and 'Consentimiento informado' (per aesthetic procedure). */
export const formKinds = ["antecedentes", "consentimiento"] as const;
export type FormKind = (typeof formKinds)[number];

/** A form sent for an appointment is pending until submitted (a draft may be saved meanwhile). */
export const formAssignmentStatuses = ["pendiente", "completado", "anulado"] as const;
export type FormAssignmentStatus = (typeof formAssignmentStatuses)[number];

/** Where a patient fills the forms of their appointments (linked from the booking confirmation and the 48 h reminder). */
export const FORMS_PATH = "/paciente/formularios";
