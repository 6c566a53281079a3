import { clinicDate } from "./clinic-time";
import { formatClinicTime, formatDateWithWeekday } from "./format";

/**
 * The reminder's WhatsApp template (issue 9). A business-initiated message outside the 24-hour window must be a
 * template approved by Meta, so the text lives at the provider under this name; the portal only fills its
 * placeholders. Register it in the Infobip account (category utility, language `es`) with this body:
 */
export const REMINDER_TEMPLATE_NAME = "recordatorio_cita";

export const REMINDER_TEMPLATE_BODY =
  "Hola {{1}}, te recordamos tu cita en la clínica el {{2}} a las {{3}}. " +
  "Para confirmarla abre este enlace: {{4}} . Si no puedes asistir, cancélala aquí: {{5}} . " +
  "Cancelar con menos de 24 horas de anticipación tiene un cargo del 50% del tratamiento.";

export interface ReminderFacts {
  firstName: string;
  startsAt: Date;
  confirmUrl: string;
  cancelUrl: string;
}

/** The placeholders in order: name, date ("jueves, 15 de enero de 2026") and time ("09:30") on the clinic's clock, links. */
export function reminderPlaceholders(facts: ReminderFacts): string[] {
  return [
    facts.firstName.trim() || "paciente",
    formatDateWithWeekday(clinicDate(facts.startsAt)),
    formatClinicTime(facts.startsAt),
    facts.confirmUrl,
    facts.cancelUrl,
  ];
}

/** The text the patient reads: the template's body with its placeholders (for previews and tests). */
export function renderReminder(placeholders: readonly string[]): string {
  return REMINDER_TEMPLATE_BODY.replace(
    /\{\{(\d+)\}\}/g,
    (_, index: string) => placeholders[Number(index) - 1] ?? "",
  );
}
