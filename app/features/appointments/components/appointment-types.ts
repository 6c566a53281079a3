/** What the /paciente/citas loader sends to the page: DTOs built field by field on the server (client-safe types). */

export interface CancellationPreview {
  /** Less than 24 hours ahead: the 50% fee applies. */
  late: boolean;
  fee: number;
  /** The fee as CLP ("$190.000"). */
  feeLabel: string;
  /** cancellationPolicyText() for this appointment at load time. */
  policyText: string;
  /**
   * What happens to a paid deposit (ADR 036), one sentence each, built by the route from cancellationSettlement:
   * refunded whole in time; late, applied to the fee first. Empty when no deposit was paid.
   */
  depositLines: string[];
}

/** 'Pagar abono' (the booking waits for its deposit) or 'Reintentar pago' (its hold was released unpaid). */
export interface CardPayment {
  kind: "pay" | "retry";
  /** "14:35": until when the slot stays held ('Pendiente de pago' only). */
  holdUntilLabel: string | null;
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
  /** "Dra. Nombre Apellido" (`dentistDisplayName`). */
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
  /** Set by the page's route when online payment applies to this booking; the appointments feature knows no money. */
  payment: CardPayment | null;
  /** 'Agregar al calendario' (issue 23): only for a scheduled or confirmed appointment. */
  calendar: CardCalendar | null;
}

/** The .ics download (owner only) and the Google Calendar and Outlook links of an appointment. */
export interface CardCalendar {
  icsUrl: string;
  googleUrl: string;
  outlookUrl: string;
}

/**
 * The money of a booking with a deposit, shown on the confirmation step before the patient leaves for Webpay
 * (Ley 20.584 art. 11: the price and the terms are known beforehand). Built by the route from the payments feature.
 */
export interface BookingMoneyView {
  priceLabel: string;
  depositLabel: string;
  remainderLabel: string;
  /** How long the slot is held waiting for the deposit (PAYMENT_HOLD_MINUTES). */
  holdMinutes: number;
}

export interface TreatmentOption {
  slug: string;
  name: string;
  description: string;
  durationMinutes: number;
  priceLabel: string;
  /** The deposit paid online at booking; null when none is asked or online payment is off. */
  money?: BookingMoneyView | null;
  /** A deposit is asked but online payment is off: it is paid at the clinic and the booking is made as before. */
  depositAtClinic?: boolean;
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
  { allowed: true } | { allowed: false; reason: "unverified" | "limit" | "no_shows"; message: string };

export interface AppointmentsPageData {
  booking: BookingAvailability;
  /** Why online booking asks this patient a deposit (repeated no-shows, ADR 042), or null. */
  bookingNotice?: string | null;
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
