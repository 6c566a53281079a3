/** What the dentist agenda loader sends to the page (client-safe types). */

export interface AgendaAppointment {
  id: string;
  /** "HH:mm" on the clinic's clock. */
  time: string;
  startsAt: string;
  patientName: string;
  treatment: string;
  durationMinutes: number;
  status: string;
  statusLabel: string;
}

export interface AgendaDay {
  /** "YYYY-MM-DD" in the clinic's zone. */
  date: string;
  heading: string;
  isToday: boolean;
  appointments: AgendaAppointment[];
}

export interface DentistAgenda {
  today: string;
  days: AgendaDay[];
  total: number;
}
