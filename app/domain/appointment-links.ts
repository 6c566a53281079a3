import { cancellationDecision, confirmationDecision } from "./appointment-policy";

/**
 * What a reminder's 'Confirmar', 'Cancelar' or 'Necesito hablar con alguien' link may do (ADR 018, ADR 039). Pure: the caller reads the token and the
 * appointment; this decides, with the appointment policy's own rules.
 *
 * - Each link is its own single-use token: using one does not use up the other (a patient may confirm, then later
 *   cancel under the policy).
 * - A token expires at the start its reminder was sent for: after that instant, or once the appointment was moved
 *   to another time, the link no longer acts (the newer reminder carries new links).
 * - A used token acts no more and says so.
 */

export const appointmentLinkActions = ["confirm", "cancel", "callback"] as const;
export type AppointmentLinkAction = (typeof appointmentLinkActions)[number];

export function isAppointmentLinkAction(value: string): value is AppointmentLinkAction {
  return (appointmentLinkActions as readonly string[]).includes(value);
}

export interface LinkToken {
  action: AppointmentLinkAction;
  /** The appointment's start when the link was issued. */
  expiresAt: Date;
  usedAt: Date | null;
}

export interface LinkAppointment {
  status: string;
  startsAt: Date;
  treatmentPrice: number | null;
}

export type AppointmentLinkState =
  /** Unknown, forged or malformed token (404). */
  | { kind: "invalid" }
  /** The appointment has started or was moved since the reminder (410). */
  | { kind: "expired"; reason: "started" | "moved" }
  /** This link already acted. */
  | { kind: "used"; usedAt: Date }
  /** Nothing for this link to do (already confirmed, cancelled, over…). */
  | { kind: "closed"; message: string }
  /** The link may act; a cancellation says its policy first. */
  | { kind: "ready"; late: boolean; fee: number };

/** The state of a link at `now`; `token` and `appointment` are undefined when not found. */
export function appointmentLinkState(
  token: LinkToken | undefined,
  appointment: LinkAppointment | undefined,
  now: Date,
): AppointmentLinkState {
  if (!token || !appointment) return { kind: "invalid" };
  if (token.expiresAt.getTime() !== appointment.startsAt.getTime())
    return { kind: "expired", reason: "moved" };
  if (now.getTime() >= token.expiresAt.getTime()) return { kind: "expired", reason: "started" };
  if (token.usedAt) return { kind: "used", usedAt: token.usedAt };
  if (token.action === "callback") {
    // Asking for a call needs no policy: only a cancelled appointment has nothing left to talk about here.
    if (appointment.status === "cancelled") {
      return {
        kind: "closed",
        message: "Esta cita fue cancelada. Si necesitas hablar con la clínica, llámanos.",
      };
    }
    return { kind: "ready", late: false, fee: 0 };
  }
  if (token.action === "confirm") {
    if (appointment.status === "confirmed") return { kind: "closed", message: "Tu cita ya está confirmada." };
    if (appointment.status === "cancelled") {
      return { kind: "closed", message: "Esta cita fue cancelada, así que ya no se puede confirmar." };
    }
    const decision = confirmationDecision(appointment, now);
    if (!decision.allowed) return { kind: "closed", message: "Esta cita ya no se puede confirmar." };
    return { kind: "ready", late: false, fee: 0 };
  }
  if (appointment.status === "cancelled") return { kind: "closed", message: "Esta cita ya está cancelada." };
  const decision = cancellationDecision(appointment, now);
  if (!decision.allowed) return { kind: "closed", message: decision.reason };
  return { kind: "ready", late: decision.late, fee: decision.fee };
}

/** The HTTP status a page of this state answers with. */
export function appointmentLinkStatus(state: AppointmentLinkState, method: "GET" | "POST"): number {
  switch (state.kind) {
    case "invalid":
      return 404;
    case "expired":
      return 410;
    case "used":
    case "closed":
      return method === "GET" ? 200 : 409;
    case "ready":
      return 200;
  }
}

/** The Spanish explanation of a state that cannot act. */
export function appointmentLinkMessage(
  state: Exclude<AppointmentLinkState, { kind: "ready" }>,
  action: AppointmentLinkAction,
): string {
  switch (state.kind) {
    case "invalid":
      return "Este enlace no es válido. Revisa que esté completo, tal como llegó en el mensaje.";
    case "expired":
      return state.reason === "moved"
        ? "Tu cita cambió de horario después de este recordatorio, así que este enlace ya no sirve. Usa el del recordatorio más reciente o revisa Mis Citas."
        : "Este enlace expiró: vencía al comenzar la cita.";
    case "used":
      if (action === "callback")
        return "Ya recibimos tu solicitud desde este enlace: un asesor te llamará pronto.";
      return action === "confirm"
        ? "Este enlace ya se usó para confirmar tu cita; no vuelve a actuar."
        : "Este enlace ya se usó para cancelar tu cita; no vuelve a actuar.";
    case "closed":
      return state.message;
  }
}
