/** What the waitlist pages show (client-safe). */

export interface WaitlistEntryView {
  id: string;
  treatment: string;
  dentist: string;
  /** "Lunes, Miércoles" or "Cualquier día". */
  weekdays: string;
  dayParts: string;
  /** "Hasta el 30 de diciembre de 2026". */
  until: string;
  status: string;
  statusLabel: string;
  active: boolean;
  /** "Para adelantar tu cita del …", when linked to a booking. */
  linked: string | null;
}

export interface WaitlistPageData {
  today: string;
  latestUntil: string;
  entries: WaitlistEntryView[];
  treatments: Array<{ slug: string; name: string }>;
  dentists: Array<{ id: string; name: string }>;
  /** The patient's upcoming bookings they may want to move earlier. */
  appointments: Array<{ id: string; label: string; treatmentSlug: string | null; dentistId: string }>;
  /** Pre-selected from Mis Citas' per-appointment link. */
  preselect: { appointmentId: string; treatment: string; dentist: string } | null;
  maxActive: number;
  activeCount: number;
}

/** One waiting patient as staff see them on a day. */
export interface StaffWaitlistEntry {
  id: string;
  patientName: string;
  patientPhone: string | null;
  treatment: string;
  dentist: string;
  dayParts: string;
  weekdays: string;
  until: string;
  joined: string;
}

export interface StaffFreedSlot {
  id: string;
  dentist: string;
  date: string;
  time: string;
  reason: string;
  status: string;
  statusLabel: string;
  batchesSent: number;
  offers: Array<{ patientName: string; batch: number; status: string; statusLabel: string; sentAt: string }>;
}

export interface StaffWaitlistDay {
  date: string;
  heading: string;
  entries: StaffWaitlistEntry[];
  slots: StaffFreedSlot[];
}
