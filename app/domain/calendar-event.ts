import { createEvent } from "ics";
import { clinicDate } from "./clinic-time";

/**
 * 'Agregar al calendario' (issue 23, ADR 039): one appointment as a calendar event — an .ics file (RFC 5545, written
 * by the `ics` package) and the Google Calendar and Outlook links. Pure: the caller gives the facts.
 *
 * - Times are UTC instants (`...Z`), so every calendar shows them on its own clock and Chile's clock changes need no
 *   VTIMEZONE block.
 * - The event carries the clinic's address as its location and a display alarm `CALENDAR_ALARM_HOURS` before.
 * - Its UID is the appointment and its start: a rescheduled appointment is a new event (the old file is stale, as
 *   its reminder links are).
 */

/** The calendar's own alarm, hours before the start. */
export const CALENDAR_ALARM_HOURS = 2;

export interface CalendarAppointment {
  appointmentId: string;
  startsAt: Date;
  endsAt: Date;
  treatment: string;
  /** "Dra. Inés Soto" (`dentistDisplayName`). */
  dentist: string;
  clinicName: string;
  clinicAddress: string;
  clinicPhone: string;
  /** Where the patient manages the appointment (Mis Citas). */
  manageUrl: string;
  /** The host part of the UID ("clinica.example"). */
  uidDomain: string;
}

export interface CalendarEvent {
  uid: string;
  title: string;
  description: string;
  location: string;
  start: Date;
  end: Date;
}

export function calendarEvent(appointment: CalendarAppointment): CalendarEvent {
  return {
    uid: `cita-${appointment.appointmentId}-${appointment.startsAt.getTime()}@${appointment.uidDomain}`,
    title: `${appointment.treatment} · ${appointment.clinicName}`,
    description:
      `Tu cita de ${appointment.treatment} con ${appointment.dentist}.\n` +
      `Para confirmarla, cambiarla o cancelarla: ${appointment.manageUrl}\n` +
      `Teléfono de la clínica: ${appointment.clinicPhone}`,
    location: appointment.clinicAddress,
    start: appointment.startsAt,
    end: appointment.endsAt,
  };
}

/** The .ics text of the event (CRLF line endings, as RFC 5545 asks); throws if the library refuses the event. */
export function calendarIcs(event: CalendarEvent, stamp: Date): string {
  const { error, value } = createEvent({
    uid: event.uid,
    productId: "-//Rio Clinica//Portal//ES",
    title: event.title,
    description: event.description,
    location: event.location,
    start: event.start.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    end: event.end.getTime(),
    endInputType: "utc",
    endOutputType: "utc",
    status: "CONFIRMED",
    busyStatus: "BUSY",
    created: stamp.getTime(),
    lastModified: stamp.getTime(),
    alarms: [
      {
        action: "display",
        description: `Recordatorio: ${event.title}`,
        trigger: { hours: CALENDAR_ALARM_HOURS, before: true },
      },
    ],
  });
  if (error || !value) throw error ?? new Error("ics: empty calendar");
  return value;
}

/** "20260115T123000Z": the basic UTC form both calendar links take. */
function basicUtc(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** Google Calendar's "add event" link. */
export function googleCalendarUrl(event: CalendarEvent): string {
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: event.title,
    dates: `${basicUtc(event.start)}/${basicUtc(event.end)}`,
    details: event.description,
    location: event.location,
    ctz: "America/Santiago",
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/** Outlook on the web's "add event" link (personal and work accounts both open it). */
export function outlookCalendarUrl(event: CalendarEvent): string {
  const params = new URLSearchParams({
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: event.title,
    startdt: event.start.toISOString(),
    enddt: event.end.toISOString(),
    body: event.description,
    location: event.location,
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params.toString()}`;
}

/** The .ics download's file name, with the appointment's clinic day (not UTC's, a day ahead in the evening). */
export function calendarFileName(startsAt: Date): string {
  return `cita-${clinicDate(startsAt)}.ics`;
}
