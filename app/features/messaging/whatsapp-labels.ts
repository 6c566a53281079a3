/** Spanish labels of WhatsApp messages for the staff pages (client-safe). */
import { whatsAppMessageStatuses, type WhatsAppMessageStatus } from "~/domain/whatsapp-message-status";

/** The purposes a message may have (`whatsapp_messages.purpose`), as the staff filter offers them. */
export const whatsAppPurposes = [
  "lead-advisor",
  "lead-patient",
  "appointment-patient",
  "appointment-clinic",
  "reminder",
  "clinical-record-code",
  "payment-patient",
  "privacy-request",
  "test",
] as const;
export type WhatsAppPurposeName = (typeof whatsAppPurposes)[number];

export const purposeLabels: Record<WhatsAppPurposeName, string> = {
  "lead-advisor": "Nuevo lead: aviso al asesor",
  "lead-patient": "Nuevo lead: confirmación al paciente",
  "appointment-patient": "Cita: aviso al paciente",
  "appointment-clinic": "Cita: aviso a la clínica",
  reminder: "Recordatorio de cita",
  "clinical-record-code": "Código de acceso a la ficha",
  "payment-patient": "Pago: aviso al paciente",
  "privacy-request": "Solicitud de datos personales",
  test: "Prueba (Dashboard de Pruebas)",
};

export const statusLabels: Record<WhatsAppMessageStatus, string> = {
  queued: "En cola",
  accepted: "Aceptado",
  delivered: "Entregado",
  read: "Leído",
  failed: "Fallido",
};

export type StatusTone = "neutral" | "info" | "good" | "bad";

/** The badge colour of each status: grey waiting, amber accepted, green delivered or read, red failed. */
export const statusTones: Record<WhatsAppMessageStatus, StatusTone> = {
  queued: "neutral",
  accepted: "info",
  delivered: "good",
  read: "good",
  failed: "bad",
};

export { whatsAppMessageStatuses };
