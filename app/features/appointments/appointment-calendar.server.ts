import type { Database } from "~/db/client.server";
import { treatmentNameOrFallback } from "~/domain/appointment-status";
import {
  calendarEvent,
  calendarFileName,
  calendarIcs,
  googleCalendarUrl,
  outlookCalendarUrl,
  type CalendarEvent,
} from "~/domain/calendar-event";
import { formatChileanPhone } from "~/domain/format";
import { AppError } from "~/lib/base/errors";
import { clinicFacts, publicBaseUrl } from "~/lib/base/env.server";
import { patientAppointment } from "./appointment-repository.server";
import type { CardCalendar } from "./components/appointment-types";
import { dentistDisplayName } from "~/domain/dentist-name";

/** 'Agregar al calendario' is offered for an appointment that will happen: scheduled or confirmed. */
const CALENDAR_STATUSES = new Set(["scheduled", "confirmed"]);

/** The path of an appointment's .ics download (owner only). */
export function calendarIcsPath(appointmentId: string): string {
  return `/paciente/citas/${appointmentId}/calendario.ics`;
}

interface CalendarRow {
  id: string;
  status: string;
  startsAt: Date;
  endsAt: Date;
  treatmentName: string | null;
  dentistFirstName: string;
  dentistLastName: string;
  dentistTitle: string | null;
}

function eventOf(row: CalendarRow, baseUrl = publicBaseUrl()): CalendarEvent {
  const clinic = clinicFacts();
  const base = baseUrl.replace(/\/+$/, "");
  return calendarEvent({
    appointmentId: row.id,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    treatment: treatmentNameOrFallback(row.treatmentName),
    dentist: dentistDisplayName({
      firstName: row.dentistFirstName,
      lastName: row.dentistLastName,
      title: row.dentistTitle,
    }),
    clinicName: clinic.name,
    clinicAddress: clinic.address,
    clinicPhone: formatChileanPhone(clinic.phone),
    manageUrl: `${base}/paciente/citas`,
    uidDomain: new URL(base).hostname,
  });
}

/** The card's (and the confirmation e-mail's) calendar links; null for an appointment that will not happen. */
export function calendarLinksOf(row: CalendarRow, baseUrl = publicBaseUrl()): CardCalendar | null {
  if (!CALENDAR_STATUSES.has(row.status)) return null;
  const event = eventOf(row, baseUrl);
  return {
    icsUrl: calendarIcsPath(row.id),
    googleUrl: googleCalendarUrl(event),
    outlookUrl: outlookCalendarUrl(event),
  };
}

/**
 * The .ics of one of the patient's own appointments (scheduled or confirmed). Another patient's appointment, a
 * cancelled one or an unknown id are the same 404.
 */
export async function ownAppointmentIcs(
  db: Pick<Database, "select">,
  patientId: string,
  appointmentId: string,
  now = new Date(),
): Promise<{ fileName: string; body: string }> {
  const row = await patientAppointment(db, patientId, appointmentId);
  if (!row || !CALENDAR_STATUSES.has(row.status)) throw new AppError("NOT_FOUND", "No encontramos esa cita.");
  return { fileName: calendarFileName(row.startsAt), body: calendarIcs(eventOf(row), now) };
}
