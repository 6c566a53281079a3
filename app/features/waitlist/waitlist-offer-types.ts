/** What the public offer page shows (client-safe). */

export interface OfferSlotView {
  treatment: string;
  dentist: string;
  /** "Lunes, 30 de noviembre de 2026". */
  date: string;
  time: string;
}

export interface NextTimeView {
  date: string;
  time: string;
}

export type OfferPageView =
  /** The offer stands: 'Tomar esta hora'. `signInFirst` when the treatment needs a deposit and no one is signed in. */
  | {
      kind: "offer";
      slot: OfferSlotView;
      keepsAppointment: string | null;
      signInFirst: { href: string } | null;
      notice: string | null;
    }
  /** Someone else took it (or an appointment now holds it): "Esta hora ya fue tomada", the next free times. */
  | { kind: "taken"; slot: OfferSlotView; nextTimes: NextTimeView[]; stillOnList: boolean }
  /** This link booked it. */
  | { kind: "claimed"; slot: OfferSlotView; keepsAppointment: string | null }
  /** Less than two hours away, or the entry was withdrawn: nothing to take. */
  | { kind: "closed"; slot: OfferSlotView }
  /** Another account is signed in. */
  | { kind: "other-user" }
  /** Unknown or malformed. */
  | { kind: "invalid" };
