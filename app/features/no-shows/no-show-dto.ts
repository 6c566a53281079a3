/** What the no-show panels send to the page (client-safe types). */

export interface NoShowRow {
  appointmentId: string;
  /** "HH:mm" on the clinic's clock. */
  time: string;
  startsAt: string;
  patientName: string;
  /** Only on the admin's day view (every dentist's appointments). */
  dentistName: string | null;
  treatment: string;
  status: string;
  statusLabel: string;
  /** No-shows of this patient in the last 12 months, and the text staff read ("2 inasistencias en 12 meses"). */
  noShowCount: number;
  noShowText: string;
  /** The patient reached the clinic's threshold. */
  repeat: boolean;
  canMark: boolean;
  canUndo: boolean;
}

export interface NoShowDay {
  /** "YYYY-MM-DD" in the clinic's zone. */
  date: string;
  heading: string;
  /** Where the mark and undo buttons post. */
  actionPath: string;
  rows: NoShowRow[];
}

export interface NoShowSettingsView {
  enabled: boolean;
  threshold: number;
  paymentsOn: boolean;
}
