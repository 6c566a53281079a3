import type { Database } from "~/db/client.server";
import {
  appointmentLinkMessage,
  appointmentLinkState,
  appointmentLinkStatus,
  type AppointmentLinkAction,
  type AppointmentLinkState,
  type LinkToken,
} from "~/domain/appointment-links";
import { cancellationPolicyText, lateCancellationRecorded } from "~/domain/appointment-policy";
import { appointmentStatusLabel, treatmentNameOrFallback } from "~/domain/appointment-status";
import { clinicDate } from "~/domain/clinic-time";
import { formatCLP, formatClinicTime, formatDateWithWeekday } from "~/domain/format";
import { confirmAppointment } from "~/features/appointments/appointment-service.server";
import { cancelWithSettlement } from "~/features/payments/booking-payment-service.server";
import { isAppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import { chargePublicWrite, type PublicWriter } from "~/lib/public-write-limit.server";
import { hashActionToken, isWellFormedActionToken } from "./action-tokens.server";
import type { AppointmentLinkView } from "./appointment-link-types";
import {
  findActionToken,
  insertReminderCallback,
  markTokenUsed,
  recordLinkAudit,
  type ActionTokenRow,
} from "./reminder-repository.server";
import { dentistDisplayName } from "~/domain/dentist-name";

export interface AppointmentLinkPage {
  status: number;
  view: AppointmentLinkView;
}

const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase("es-CL") + text.slice(1);

function appointmentOf(row: ActionTokenRow, status = row.status): AppointmentLinkView["appointment"] {
  return {
    date: capitalize(formatDateWithWeekday(clinicDate(row.startsAt))),
    time: formatClinicTime(row.startsAt),
    startsAt: row.startsAt.toISOString(),
    treatment: treatmentNameOrFallback(row.treatmentName),
    dentist: dentistDisplayName({
      firstName: row.dentistFirstName,
      lastName: row.dentistLastName,
      title: row.dentistTitle,
    }),
    statusLabel: appointmentStatusLabel(status),
  };
}

function stateOf(row: ActionTokenRow | undefined, now: Date): AppointmentLinkState {
  if (!row) return appointmentLinkState(undefined, undefined, now);
  const token: LinkToken = {
    action: row.action as AppointmentLinkAction,
    expiresAt: row.expiresAt,
    usedAt: row.usedAt,
  };
  return appointmentLinkState(
    token,
    { status: row.status, startsAt: row.startsAt, treatmentPrice: row.treatmentPrice },
    now,
  );
}

/** The page of a state, with the appointment only when the link is a real one that has not expired. */
function pageOf(
  action: AppointmentLinkAction,
  state: AppointmentLinkState,
  row: ActionTokenRow | undefined,
  method: "GET" | "POST",
): AppointmentLinkPage {
  const status = appointmentLinkStatus(state, method);
  if (state.kind === "ready") {
    return {
      status,
      view: {
        action,
        state: "ready",
        appointment: row && appointmentOf(row),
        policy:
          action === "cancel"
            ? { late: state.late, fee: state.fee, text: cancellationPolicyText(state, formatCLP) }
            : undefined,
      },
    };
  }
  const showAppointment = row && (state.kind === "used" || state.kind === "closed");
  return {
    status,
    view: {
      action,
      state: state.kind,
      message: appointmentLinkMessage(state, action),
      appointment: showAppointment ? appointmentOf(row) : undefined,
    },
  };
}

async function lookUp(db: Database, action: AppointmentLinkAction, token: string, lock = false) {
  if (!isWellFormedActionToken(token)) return undefined;
  return findActionToken(db, hashActionToken(token), action, { lock });
}

/** What a link's page shows on GET. Reads only: mail and chat scanners open links before the patient does. */
export async function appointmentLinkPage(
  db: Database,
  action: AppointmentLinkAction,
  token: string,
  now = new Date(),
): Promise<AppointmentLinkPage> {
  const row = await lookUp(db, action, token);
  return pageOf(action, stateOf(row, now), row, "GET");
}

export interface LinkUse {
  /** The cancellation fee the page showed; the cancellation is refused if the policy now says otherwise. */
  shownFee?: number;
  writer: PublicWriter;
  /** The client's address for the audit log. */
  ip: string;
}

/**
 * Uses a link: confirms or cancels the appointment through the appointment service's own rules, marks the token
 * used and writes the audit row, all in one transaction (the token's row is locked first, so a second use of the
 * same link waits and then finds it used). Every attempt is charged to the client's public-write budget first,
 * also a forged one. A cancellation whose fee differs from the one the page showed (the 24-hour mark passed
 * meanwhile) is not made: the page shows the new policy and asks again.
 */
export async function actOnAppointmentLink(
  db: Database,
  action: AppointmentLinkAction,
  token: string,
  use: LinkUse,
  now = new Date(),
): Promise<AppointmentLinkPage> {
  await chargePublicWrite(db, "appointmentLink", use.writer, now);
  try {
    return await db.transaction(async (tx) => {
      const row = await lookUp(tx, action, token, true);
      const state = stateOf(row, now);
      if (!row || state.kind !== "ready") return pageOf(action, state, row, "POST");
      if (action === "cancel" && use.shownFee !== undefined && use.shownFee !== state.fee) {
        const page = pageOf(action, state, row, "POST");
        return {
          status: 409,
          view: {
            ...page.view,
            notice:
              "La política de cancelación de tu cita cambió desde que abriste esta página. Revísala antes de cancelar.",
          },
        };
      }
      if (!(await markTokenUsed(tx, row.tokenId, now))) {
        return pageOf(action, { kind: "used", usedAt: now }, row, "POST");
      }
      if (action === "callback") {
        const request = await insertReminderCallback(tx, {
          patientId: row.patientId,
          appointmentId: row.appointmentId,
          reason: `Pidió hablar con alguien desde el recordatorio de su cita del ${formatDateWithWeekday(clinicDate(row.startsAt))} a las ${formatClinicTime(row.startsAt)}.`,
          at: now,
        });
        await recordLinkAudit(tx, {
          action: "appointment.callback_by_link",
          patientId: row.patientId,
          details: { appointmentId: row.appointmentId, requestId: request.id },
          ip: use.ip,
          at: now,
        });
        logger.info(
          { appointmentId: row.appointmentId, requestId: request.id },
          "callback asked through a reminder link",
        );
        return {
          status: 200,
          view: {
            action,
            state: "done",
            message: "Recibimos tu solicitud. Un asesor de la clínica te llamará pronto.",
            appointment: appointmentOf(row),
          },
        };
      }
      if (action === "confirm") {
        await confirmAppointment(tx, row.patientId, row.appointmentId, now);
        await recordLinkAudit(tx, {
          action: "appointment.confirmed_by_link",
          patientId: row.patientId,
          details: { appointmentId: row.appointmentId },
          ip: use.ip,
          at: now,
        });
        logger.info({ appointmentId: row.appointmentId }, "appointment confirmed through a reminder link");
        return {
          status: 200,
          view: {
            action,
            state: "done",
            message: "¡Listo! Tu cita quedó confirmada. Te esperamos.",
            appointment: appointmentOf(row, "confirmed"),
          },
        };
      }
      const cancelled = await cancelWithSettlement(tx, row.patientId, row.appointmentId, now);
      await recordLinkAudit(tx, {
        action: "appointment.cancelled_by_link",
        patientId: row.patientId,
        details: { appointmentId: row.appointmentId, fee: cancelled.fee, late: cancelled.late },
        ip: use.ip,
        at: now,
      });
      logger.info({ appointmentId: row.appointmentId }, "appointment cancelled through a reminder link");
      return {
        status: 200,
        view: {
          action,
          state: "done",
          message: cancelled.late
            ? lateCancellationRecorded(formatCLP(cancelled.fee))
            : "Tu cita fue cancelada, sin costo.",
          appointment: appointmentOf(row, "cancelled"),
        },
      };
    });
  } catch (error) {
    // A rule of the appointment service refused (the appointment changed in the meantime): nothing was written.
    if (!isAppError(error) || error.code === "RATE_LIMITED") throw error;
    const page = await appointmentLinkPage(db, action, token, now);
    return { status: error.status, view: { ...page.view, notice: error.message } };
  }
}
