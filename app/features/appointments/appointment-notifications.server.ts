import { dentistDisplayName } from "~/domain/dentist-name";
import type { Database } from "~/db/client.server";
import {
  clinicAppointmentMessage,
  clinicAppointmentTemplate,
  patientAppointmentMessage,
  patientAppointmentTemplate,
  type AppointmentEvent,
} from "~/domain/appointment-messages";
import { accountSubject, mayContact } from "~/features/consent/consent-service.server";
import { enqueueWhatsApp, type EnqueueWhatsAppInput } from "~/features/messaging/whatsapp-outbox.server";
import { WhatsAppInputError } from "~/integrations/whatsapp/whatsapp-client.server";
import { clinicDate } from "~/domain/clinic-time";
import { FORMS_PATH } from "~/domain/forms";
import { formatClinicTime, formatDateWithWeekday } from "~/domain/format";
import { enqueueEmail } from "~/features/email/email-outbox.server";
import { bookingConfirmationEmail } from "~/features/email/email-templates";
import { clinicFacts, publicBaseUrl } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { calendarLinksOf } from "./appointment-calendar.server";
import { appointmentParties, patientAppointment } from "./appointment-repository.server";

export interface AppointmentNotice {
  event: AppointmentEvent;
  appointmentId: string;
  patientId: string;
  dentistId: string;
  treatment: string;
  startsAt: Date;
  previousStartsAt?: Date;
  fee?: number;
  /** How many forms the booking asks the patient to fill before the visit: the confirmation links them. */
  formsToFill?: number;
  /**
   * Tells this event apart from the appointment's other events of the same kind (a second reschedule): the
   * idempotency key is the appointment, the event and this, so one event queues one message per recipient.
   */
  occurrence?: string;
}

/**
 * Queues the WhatsApp messages of an appointment event in the caller's transaction (ADR 020): to the patient only
 * when they agreed in Mi Perfil and have a phone, and always to the clinic's WhatsApp number. Each carries its text
 * and its approved template; the send picks by the recipient's 24-hour window.
 */
export async function notifyAppointment(tx: Database, notice: AppointmentNotice) {
  const { patient, dentist } = await appointmentParties(tx, notice.patientId, notice.dentistId);
  if (!patient) return;
  const clinic = clinicFacts();
  const facts = {
    event: notice.event,
    clinicName: clinic.shortName,
    patient: { firstName: patient.firstName, lastName: patient.lastName, phone: patient.phone },
    treatment: notice.treatment,
    // As the portal names dentists ("Dra. Nombre Apellido").
    dentist: dentist ? dentistDisplayName(dentist) : "la clínica",
    startsAt: notice.startsAt,
    previousStartsAt: notice.previousStartsAt,
    fee: notice.fee,
  };
  const key = `appointment:${notice.appointmentId}:${notice.event}${notice.occurrence ? `:${notice.occurrence}` : ""}`;
  if (patient.whatsappOptInAt && patient.phone && (await patientMayGetWhatsApp(tx, notice.patientId))) {
    await queue(tx, {
      purpose: "appointment-patient",
      to: patient.phone,
      text: patientAppointmentMessage(facts),
      template: patientAppointmentTemplate(facts),
      appointmentId: notice.appointmentId,
      userId: notice.patientId,
      idempotencyKey: `${key}:patient`,
    });
  }
  if (notice.event !== "cancelled") await queueBookingEmail(tx, notice, patient, facts.dentist, key);
  await queue(tx, {
    purpose: "appointment-clinic",
    to: clinic.mobile,
    text: clinicAppointmentMessage(facts),
    template: clinicAppointmentTemplate(facts),
    appointmentId: notice.appointmentId,
    // The notice names the patient and their phone: it goes with the patient's account.
    userId: notice.patientId,
    idempotencyKey: `${key}:clinic`,
  });
}

/** The ledger's answer (ADR 037): the patient's WhatsApp consent in force and no block. */
async function patientMayGetWhatsApp(tx: Database, patientId: string) {
  const subject = await accountSubject(tx, patientId);
  return (await mayContact(tx, subject, "recordatorios_whatsapp")).allowed;
}

/**
 * A number WhatsApp cannot take is refused before anything is written, so it is logged and skipped: the booking
 * itself must not fail because a notice cannot be sent.
 */
async function queue(tx: Pick<Database, "insert">, input: EnqueueWhatsAppInput) {
  try {
    await enqueueWhatsApp(tx, input);
  } catch (error) {
    if (!(error instanceof WhatsAppInputError)) throw error;
    logger.warn(
      { appointmentId: input.appointmentId, purpose: input.purpose },
      "appointment notice not queued: not a WhatsApp number",
    );
  }
}

/**
 * The booking (or reschedule) confirmation by e-mail (issue 23, ADR 039), to the account's address: the appointment
 * and 'Agregar al calendario' (the .ics download in the portal, Google Calendar and Outlook). A service message about
 * the patient's own booking, like the account e-mails: no marketing consent is asked.
 */
async function queueBookingEmail(
  tx: Database,
  notice: AppointmentNotice,
  patient: { firstName: string; email: string },
  dentist: string,
  key: string,
) {
  const row = await patientAppointment(tx, notice.patientId, notice.appointmentId);
  if (!row) return;
  const base = publicBaseUrl().replace(/\/+$/, "");
  const links = calendarLinksOf(row, base);
  await enqueueEmail(tx, {
    idempotencyKey: `${key}:email`,
    to: patient.email,
    content: bookingConfirmationEmail(clinicFacts(), {
      firstName: patient.firstName,
      rescheduled: notice.event === "rescheduled",
      treatment: notice.treatment,
      dentist,
      dateLabel: formatDateWithWeekday(clinicDate(row.startsAt)),
      time: formatClinicTime(row.startsAt),
      manageUrl: `${base}/paciente/citas`,
      calendar: links && { ...links, icsUrl: `${base}${links.icsUrl}` },
      forms: notice.formsToFill ? { count: notice.formsToFill, url: `${base}${FORMS_PATH}` } : null,
    }),
  });
}
