import type { ProfileCompleteness } from "~/domain/profile-completeness";

export interface NextAppointmentDto {
  id: string;
  /** "lunes, 15 de enero de 2024" (clinic calendar). */
  date: string;
  /** "HH:mm" on the clinic's clock. */
  time: string;
  treatment: string;
  dentist: string;
  status: string;
}

export interface PatientDashboardDto {
  nextAppointment: NextAppointmentDto | null;
  /** The same split as Mis Citas' tabs ("today" on the clinic's clock, not UTC). */
  counts: { upcoming: number; history: number };
  completeness: ProfileCompleteness;
  /** Intake and consent forms still to fill before upcoming appointments (ADR 041). */
  pendingForms: number;
}
