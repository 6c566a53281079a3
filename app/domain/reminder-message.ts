import { renderTemplate, whatsAppTemplates } from "./whatsapp-templates";
import { clinicDate } from "./clinic-time";
import { formatClinicTime, formatDateWithWeekday } from "./format";

/**
 * The reminder's WhatsApp template (ADR 018): a business-initiated message outside the 24-hour window must be a
 * template approved by Meta, so its text lives at the provider; it is registered with the others in
 * `whatsapp-templates.ts` (`recordatorio_cita`), and the portal only fills its placeholders.
 */
export const REMINDER_TEMPLATE_NAME = whatsAppTemplates.appointmentReminder.name;
export const REMINDER_TEMPLATE_BODY = whatsAppTemplates.appointmentReminder.body;

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
  return renderTemplate("appointmentReminder", placeholders);
}
