/** What the /paciente/citas loader sends to the page: DTOs built field by field on the server (client-safe types). */

export interface CancellationPreview {
  /** Less than 24 hours ahead: the 50% fee applies. */
  late: boolean;
  fee: number;
  /** The fee as CLP ("$190.000"). */
  feeLabel: string;
  /** cancellationPolicyText() for this appointment at load time. */
  policyText: string;
}

export interface AppointmentCardData {
  id: string;
  status: string;
  treatmentName: string;
  /** The treatment's slug, used to look up free slots when rescheduling (null if the treatment was removed). */
  treatmentSlug: string | null;
  treatmentDescription: string | null;
  /** "YYYY-MM-DD" in the clinic's zone. */
  date: string;
  /** "lunes, 15 de enero de 2024" (es-CL, clinic's zone). */
  dateLabel: string;
  /** "HH:mm" on the clinic's clock. */
  time: string;
  startsAt: string;
  /** The appointment's own, else the treatment's, else 60. */
  durationMinutes: number;
  dentistId: string;
  /** "Dr. Nombre Apellido". */
  dentistName: string;
  dentistPhone: { href: string; label: string } | null;
  /** "$850.000", if the treatment has a price. */
  priceLabel: string | null;
  notes: string | null;
  /** A recorded late-cancellation or no-show charge, as CLP. */
  cancellationFeeLabel: string | null;
  actions: {
    confirm: boolean;
    reschedule: boolean;
    cancel: boolean;
    /** Why rescheduling online is not possible although the appointment is still live (inside 24 hours). */
    rescheduleHint: string | null;
  };
  cancellation: CancellationPreview | null;
}

export interface TreatmentOption {
  slug: string;
  name: string;
  description: string;
  durationMinutes: number;
  priceLabel: string;
}

export interface DentistOption {
  id: string;
  name: string;
}

export interface DayOption {
  /** "YYYY-MM-DD". */
  date: string;
  /** "lunes, 15 de enero de 2024". */
  label: string;
  /** "lun" */
  weekdayShort: string;
  /** "15 ene" */
  dayShort: string;
  isToday: boolean;
}

/**
 * Whether the patient may book a new appointment now; when not, why ("unverified": the e-mail is not confirmed;
 * "limit": MAX_UPCOMING_APPOINTMENTS upcoming appointments) and the Spanish message the server answers with.
 */
export type BookingAvailability =
  { allowed: true } | { allowed: false; reason: "unverified" | "limit"; message: string };

export interface AppointmentsPageData {
  booking: BookingAvailability;
  upcoming: AppointmentCardData[];
  history: AppointmentCardData[];
  treatments: TreatmentOption[];
  dentists: DentistOption[];
  openDays: DayOption[];
}

/** A dialog about one appointment (reschedule, cancel): open while `appointment` is set. */
export interface AppointmentDialogProps {
  appointment: AppointmentCardData | null;
  onClose: () => void;
  /** Where focus goes when the card's button that opened the dialog is gone. */
  fallbackFocus: () => HTMLElement | null;
}
