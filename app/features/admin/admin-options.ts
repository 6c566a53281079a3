/** Labels and choices of the admin area (client-safe, no zod). */
import { roleNames, type RoleName } from "~/domain/roles";

export const USERS_PAGE_SIZE = 50;
export const AUDIT_PAGE_SIZE = 200;
/** Each request list shows at most this many rows (newest first). */
export const REQUESTS_LIST_LIMIT = 200;

export const roleLabels: Record<RoleName, string> = {
  paciente: "Paciente",
  dentista: "Dentista",
  asesor: "Asesor",
  admin: "Administrador",
  super_admin: "Super administrador",
};

export const grantableRoles = roleNames;

/** A stored role name in Spanish; an unexpected name is shown as stored. */
export function roleLabel(role: string): string {
  return (roleLabels as Record<string, string>)[role] ?? role;
}

export const requestStatuses = ["new", "in_progress", "done"] as const;
export type RequestStatus = (typeof requestStatuses)[number];

export const requestStatusLabels: Record<RequestStatus, string> = {
  new: "Nueva",
  in_progress: "En curso",
  done: "Resuelta",
};

export function requestStatusLabel(status: string): string {
  return (requestStatusLabels as Record<string, string>)[status] ?? status;
}

/** Data-subject requests left this page for /admin/privacidad (ADR 037); older audit rows still name them. */
export const requestKinds = ["callback"] as const;
export type RequestKind = (typeof requestKinds)[number];

export const requestKindLabels: Record<RequestKind | "data_rights", string> = {
  data_rights: "Solicitud de datos personales",
  callback: "Solicitud de llamada",
};

export const auditActionLabels: Record<string, string> = {
  "appointment.no_show": "Inasistencia marcada",
  "appointment.no_show_undone": "Inasistencia deshecha",
  "settings.no_shows": "Regla de inasistencias",
  "role.grant": "Rol otorgado",
  "role.revoke": "Rol revocado",
  "user.deactivate": "Cuenta desactivada",
  "user.reactivate": "Cuenta reactivada",
  "user.title": "Título profesional cambiado",
  "request.status": "Estado de solicitud cambiado",
  "lead.status_changed": "Estado de lead cambiado",
  "lead.contacted": "Contacto con lead registrado",
  "lead.note_added": "Nota agregada a un lead",
  "lead.assigned": "Lead reasignado",
  "staff.availability": "Disponibilidad de asesor cambiada",
  "appointment.confirmed_by_link": "Cita confirmada con el enlace del recordatorio",
  "appointment.cancelled_by_link": "Cita cancelada con el enlace del recordatorio",
  "dentalink.sync": "Sincronización con Dentalink",
  "dentalink.dentist_linked": "Dentista vinculado a Dentalink",
  "dentalink.writethrough_retried": "Reintento de envío a Dentalink",
  "form.read": "Lectura de un formulario del paciente",
};

/** Actions written by other areas are shown with their code until they get a label here. */
export function auditActionLabel(action: string): string {
  return auditActionLabels[action] ?? action;
}
