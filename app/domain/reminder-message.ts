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
  /** 'Necesito hablar con alguien' (issue 23). */
  callbackUrl: string;
}

/** The placeholders in order: name, date ("jueves, 15 de enero de 2026") and time ("09:30") on the clinic's clock, links. */
export function reminderPlaceholders(facts: ReminderFacts): string[] {
  return [
    facts.firstName.trim() || "paciente",
    formatDateWithWeekday(clinicDate(facts.startsAt)),
    formatClinicTime(facts.startsAt),
    facts.confirmUrl,
    facts.cancelUrl,
    facts.callbackUrl,
  ];
}

/** The text the patient reads: the template's body with its placeholders (for previews and tests). */
export function renderReminder(placeholders: readonly string[]): string {
  return renderTemplate("appointmentReminder", placeholders);
}

/** The 48 h step (issue 23): with the forms link when the appointment has forms still to fill. */
export function earlyReminderTemplate(facts: {
  firstName: string;
  startsAt: Date;
  clinicName: string;
  formsUrl: string | null;
}): { key: "appointmentReminderEarly" | "appointmentReminderEarlyForms"; placeholders: string[] } {
  const head = [
    facts.firstName.trim() || "paciente",
    formatDateWithWeekday(clinicDate(facts.startsAt)),
    formatClinicTime(facts.startsAt),
  ];
  return facts.formsUrl
    ? { key: "appointmentReminderEarlyForms", placeholders: [...head, facts.formsUrl, facts.clinicName] }
    : { key: "appointmentReminderEarly", placeholders: [...head, facts.clinicName] };
}

/** The 2 h step ("te esperamos", issue 23): the date too, since quiet hours may move it to the evening before. */
export function sameDayReminderPlaceholders(facts: { firstName: string; startsAt: Date; address: string }) {
  return [
    facts.firstName.trim() || "paciente",
    formatDateWithWeekday(clinicDate(facts.startsAt)),
    formatClinicTime(facts.startsAt),
    facts.address,
  ];
}
