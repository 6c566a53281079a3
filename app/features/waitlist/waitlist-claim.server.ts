import type { Database } from "~/db/client.server";
import { addDays, clinicDate, clinicTime } from "~/domain/clinic-time";
import { formatClinicTime, formatDateWithWeekday } from "~/domain/format";
import { BOOKING_HORIZON_DAYS } from "~/domain/appointment-policy";
import { SLOT_ALREADY_TAKEN } from "~/domain/waitlist";
import { availableSlots } from "~/features/appointments/appointment-service.server";
import { bookingMoney, bookWithPayment } from "~/features/payments/booking-payment-service.server";
import { hashActionToken, isWellFormedActionToken } from "~/features/reminders/action-tokens.server";
import type { WebpayClient } from "~/integrations/webpay/webpay-client.server";
import { AppError, isAppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import type { NextTimeView, OfferPageView, OfferSlotView } from "./waitlist-offer-types";
import {
  liveAppointment,
  lockSlot,
  offerByTokenHash,
  recordClaim,
  type OfferRow,
} from "./waitlist-repository.server";
import { dentistDisplayName } from "~/domain/dentist-name";

export interface OfferPage {
  status: number;
  view: OfferPageView;
}

export interface ClaimOutcome extends OfferPage {
  /** The deposit's Webpay attempt to go on to (ADR 036), when the treatment needs one. */
  paymentId?: string;
}

const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase("es-CL") + text.slice(1);

function slotView(row: OfferRow): OfferSlotView {
  return {
    treatment: row.treatmentName,
    dentist: dentistDisplayName({
      firstName: row.dentistFirstName,
      lastName: row.dentistLastName,
      title: row.dentistTitle,
    }),
    date: capitalize(formatDateWithWeekday(clinicDate(row.startsAt))),
    time: formatClinicTime(row.startsAt),
  };
}

async function findOffer(db: Database, token: string) {
  if (!isWellFormedActionToken(token)) return undefined;
  return offerByTokenHash(db, hashActionToken(token));
}

/** The booking the patient wanted to move earlier, while it still holds its time: kept, and the page says so. */
async function keptAppointment(db: Database, row: OfferRow) {
  if (!row.entryAppointmentId) return null;
  const kept = await liveAppointment(db, row.entryAppointmentId, row.patientId);
  if (!kept) return null;
  return `${capitalize(formatDateWithWeekday(clinicDate(kept.startsAt)))} a las ${formatClinicTime(kept.startsAt)}`;
}

/** The next few free times for the entry's treatment and dentist (or any), within its window and the horizon. */
async function nextFreeTimes(db: Database, row: OfferRow, now: Date, count = 5): Promise<NextTimeView[]> {
  const today = clinicDate(now);
  const last = [row.entryUntilDate, addDays(today, BOOKING_HORIZON_DAYS)].toSorted()[0]!;
  const times: NextTimeView[] = [];
  for (let date = today, scanned = 0; date <= last && scanned < 21 && times.length < count; scanned += 1) {
    const slots = await availableSlots(
      db,
      {
        treatmentSlug: row.treatmentSlug,
        dentistId: row.entryDentistId ?? "any",
        date,
        forPatientId: row.patientId,
      },
      now,
    );
    for (const slot of slots.slice(0, count - times.length)) {
      times.push({ date: capitalize(formatDateWithWeekday(date)), time: slot.time });
    }
    date = addDays(date, 1);
  }
  return times;
}

async function takenPage(db: Database, row: OfferRow, now: Date, status = 200): Promise<OfferPage> {
  return {
    status,
    view: {
      kind: "taken",
      slot: slotView(row),
      nextTimes: await nextFreeTimes(db, row, now),
      stillOnList: row.entryStatus === "activa",
    },
  };
}

/** Whether the offer was claimed by this very link (a second visit shows the booking again, nothing more). */
const claimedPage = async (db: Database, row: OfferRow): Promise<OfferPage> => ({
  status: 200,
  view: { kind: "claimed", slot: slotView(row), keepsAppointment: await keptAppointment(db, row) },
});

export interface ClaimContext {
  /** The signed-in account, if any: it must be the entry's patient. */
  sessionUserId: string | null;
  /** Where to come back after signing in. */
  path: string;
  webpay: WebpayClient | null;
  now?: Date;
}

/**
 * The page of an offer's link (GET): shows the slot and changes nothing. Unknown → 404; another account signed in
 * → 403; taken → "Esta hora ya fue tomada" with the next free times.
 */
export async function offerPage(db: Database, token: string, context: ClaimContext): Promise<OfferPage> {
  const now = context.now ?? new Date();
  const row = await findOffer(db, token);
  if (!row) return { status: 404, view: { kind: "invalid" } };
  if (context.sessionUserId && context.sessionUserId !== row.patientId) {
    return { status: 403, view: { kind: "other-user" } };
  }
  if (row.status === "tomada") return claimedPage(db, row);
  if (row.status === "perdida" || row.slotStatus !== "abierta") return takenPage(db, row, now);
  if (row.entryStatus !== "activa" || now.getTime() >= row.expiresAt.getTime()) {
    return { status: 200, view: { kind: "closed", slot: slotView(row) } };
  }
  const money = await bookingMoney(db, row.patientId, row.treatmentSlug);
  const needsDeposit = context.webpay !== null && money !== null && money.deposit > 0;
  return {
    status: 200,
    view: {
      kind: "offer",
      slot: slotView(row),
      keepsAppointment: await keptAppointment(db, row),
      signInFirst:
        needsDeposit && !context.sessionUserId
          ? { href: `/auth?redirectTo=${encodeURIComponent(context.path)}` }
          : null,
      notice: null,
    },
  };
}

/**
 * 'Tomar esta hora' (POST). The booking goes through the appointment service like any other (its availability
 * check, the patient's lock and cap, the database's exclusion constraint), and inside its transaction the slot's row
 * is locked and must still be open: of two simultaneous claims exactly one books, the other reads "Esta hora ya fue
 * tomada". The winner's offer becomes 'tomada', the slot's other offers 'perdida', the entry 'cumplida'. A treatment
 * with a deposit is held and the caller goes on to Webpay (then the patient must be signed in, as checkout is).
 */
export async function claimOffer(db: Database, token: string, context: ClaimContext): Promise<ClaimOutcome> {
  const now = context.now ?? new Date();
  const shown = await offerPage(db, token, context);
  if (shown.view.kind !== "offer") return shown;
  if (shown.view.signInFirst) {
    return {
      status: 401,
      view: { ...shown.view, notice: "Inicia sesión para tomar esta hora y pagar el abono." },
    };
  }
  const row = (await findOffer(db, token))!;
  try {
    const result = await bookWithPayment(
      db,
      row.patientId,
      {
        treatment: row.treatmentSlug,
        dentist: row.dentistId,
        date: clinicDate(row.startsAt),
        time: clinicTime(row.startsAt),
      },
      context.webpay,
      now,
      async (tx, booked) => {
        const slot = await lockSlot(tx, row.slotId);
        if (!slot || slot.status !== "abierta") throw new AppError("CONFLICT", SLOT_ALREADY_TAKEN);
        await recordClaim(tx, {
          slotId: row.slotId,
          offerId: row.id,
          entryId: row.entryId,
          appointmentId: booked.id,
          now,
        });
      },
    );
    logger.info({ offerId: row.id, appointmentId: result.booked.id }, "waitlist offer claimed");
    const page = await claimedPage(db, row);
    return result.kind === "payment" ? { ...page, paymentId: result.paymentId } : page;
  } catch (error) {
    if (!isAppError(error)) throw error;
    const again = await findOffer(db, token);
    // Lost the race, or the time was booked otherwise: the slot is no longer free for this link.
    if (error.code === "CONFLICT" && (again?.slotStatus !== "abierta" || (await isTakenNow(error)))) {
      return takenPage(db, again ?? row, now, 409);
    }
    return { status: error.status, view: { ...shown.view, notice: error.message } };
  }
}

/** The booking's own "slot taken" refusal (someone booked that time): the same answer as a lost claim. */
async function isTakenNow(error: AppError) {
  return (
    error.message === SLOT_ALREADY_TAKEN || error.message.startsWith("Ese horario ya no está disponible")
  );
}
