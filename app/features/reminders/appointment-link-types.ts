import type { AppointmentLinkAction } from "~/domain/appointment-links";

/** The public paths of a reminder's links (app/routes.ts lists them): /cita/confirmar/:token, /cita/cancelar/:token, /cita/hablar/:token. */
export const appointmentLinkSegment: Readonly<Record<AppointmentLinkAction, string>> = {
  confirm: "confirmar",
  cancel: "cancelar",
  callback: "hablar",
};

export function appointmentLinkPath(action: AppointmentLinkAction, token: string): string {
  return `/cita/${appointmentLinkSegment[action]}/${token}`;
}

/** What the link page shows (a DTO built field by field; never the token's row). */
export interface AppointmentLinkView {
  action: AppointmentLinkAction;
  /** `done`: this request just confirmed or cancelled the appointment, or asked for a call. */
  state: "invalid" | "expired" | "used" | "closed" | "ready" | "done";
  /** Why the link cannot act, or what it just did. */
  message?: string;
  /** A refusal of this attempt that leaves the link usable (rate limit, the policy changed meanwhile). */
  notice?: string;
  appointment?: {
    /** "Jueves, 15 de enero de 2026". */
    date: string;
    /** "09:30", clinic time. */
    time: string;
    /** ISO instant, for <time dateTime>. */
    startsAt: string;
    treatment: string;
    dentist: string;
    statusLabel: string;
  };
  /** A cancellation's policy, shown before the patient cancels. */
  policy?: { late: boolean; fee: number; text: string };
}
