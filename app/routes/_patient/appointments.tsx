import { dentistDisplayName } from "~/domain/dentist-name";
import { data } from "react-router";
import type { Route } from "./+types/appointments";
import { getDb } from "~/db/client.server";
import {
  cancellationDecision,
  cancellationPolicyText,
  confirmationDecision,
  effectiveDuration,
  rescheduleDecision,
} from "~/domain/appointment-policy";
import { treatmentNameOrFallback } from "~/domain/appointment-status";
import { clinicDate, clinicTime, startOfClinicDay } from "~/domain/clinic-time";
import {
  formatChileanPhone,
  formatClinicTime,
  formatCLP,
  formatDateWithWeekday,
  formatShortDay,
  formatWeekdayShort,
} from "~/domain/format";
import { cancellationSettlement, feeBasePrice, PAYMENT_HOLD_MINUTES } from "~/domain/payments";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import {
  appointmentActionSchema,
  type AppointmentActionResult,
} from "~/features/appointments/appointment-schema";
import {
  bookingAvailabilityOf,
  confirmAppointment,
  listDentists,
  listTreatments,
  patientAppointments,
  rescheduleForPatient,
  type AppointmentCardRow,
} from "~/features/appointments/appointment-service.server";
import { calendarLinksOf } from "~/features/appointments/appointment-calendar.server";
import { AppointmentsPage } from "~/features/appointments/components/appointments-page";
import type {
  AppointmentCardData,
  AppointmentsPageData,
  CardPayment,
  DayOption,
  TreatmentOption,
} from "~/features/appointments/components/appointment-types";
import {
  bookingMoneyOf,
  depositCatalogue,
  bookWithPayment,
  cancelWithSettlement,
  payCharge,
} from "~/features/payments/booking-payment-service.server";
import {
  depositsPaidByAppointment,
  openDepositChargeOf,
} from "~/features/payments/patient-payment-pages.server";
import { depositFlagsOf, noShowBookingStatus } from "~/features/no-shows/no-show-service.server";
import { checkoutRedirect } from "~/features/payments/payment-paths";
import { webpayClient } from "~/features/payments/webpay-gateway.server";
import { actionSuccess } from "~/lib/base/action-result";
import { appErrorResult, validationResult } from "~/lib/base/errors.server";
import { requireUser } from "~/lib/guards.server";
import { ttlCache } from "~/lib/ttl-cache.server";
import { readForm } from "~/lib/request.server";

export const meta: Route.MetaFunction = () => [
  { title: "Mis Citas | Río Clínica" },
  { name: "robots", content: "noindex" },
];

// The booking dialog's lists change rarely; the booking itself always reads the database.
const cachedTreatments = ttlCache(60_000, async () => listTreatments(await getDb()));
const cachedDentists = ttlCache(30_000, async () => listDentists(await getDb()));
const cachedDepositCatalogue = ttlCache(5_000, async () => depositCatalogue(await getDb()));

/** How many open days the booking and rescheduling dialogs offer. */
const OPEN_DAYS_OFFERED = 20;

const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase("es-CL") + text.slice(1);

/** "Lunes, 15 de enero de 2024" for a clinic calendar date. */
const longDate = (date: string) => capitalize(formatDateWithWeekday(date));

function dayOption(date: string, today: string): DayOption {
  return {
    date,
    label: longDate(date),
    weekdayShort: formatWeekdayShort(date).replace(".", ""),
    dayShort: formatShortDay(date).replace(".", ""),
    isToday: date === today,
  };
}

/*
 * The booking dialog's days depend on the clinic's date only (the default week): made once per clinic day, not per
 * request. The list is shared between requests and never changed.
 */
let bookingDays: { today: string; days: readonly DayOption[] } | null = null;
function bookingDaysOf(today: string): DayOption[] {
  if (bookingDays?.today !== today) {
    const days = openDays(today, OPEN_DAYS_OFFERED, DEFAULT_WEEK).map((date) => dayOption(date, today));
    bookingDays = { today, days };
  }
  return bookingDays.days as DayOption[];
}

/** Each treatment's description by slug, kept with the cached list it was made from. */
const descriptionMaps = new WeakMap<readonly { slug: string }[], Map<string, string | null>>();
function descriptionsOf(treatments: readonly { slug: string; description: string | null }[]) {
  let map = descriptionMaps.get(treatments);
  if (!map) {
    map = new Map(treatments.map((treatment) => [treatment.slug, treatment.description]));
    descriptionMaps.set(treatments, map);
  }
  return map;
}

/** 'Pagar abono' while the booking is held, 'Reintentar pago' once its hold was released unpaid (ADR 036). */
function cardPayment(row: AppointmentCardRow, now: Date, online: boolean): CardPayment | null {
  if (!online || row.startsAt.getTime() <= now.getTime()) return null;
  if (row.status === "pending_payment") {
    return {
      kind: "pay",
      holdUntilLabel: row.paymentHoldExpiresAt ? formatClinicTime(row.paymentHoldExpiresAt) : null,
    };
  }
  if (row.status === "payment_failed") return { kind: "retry", holdUntilLabel: null };
  return null;
}

/** The cancel dialog's money sentences for a paid deposit (cancellationSettlement, ADR 036). */
function depositLines(late: boolean, fee: number, depositPaid: number): string[] {
  if (depositPaid <= 0) return [];
  const settlement = cancellationSettlement({ late, fee, depositPaid });
  if (!late) return [`Te devolveremos el abono de ${formatCLP(depositPaid)}.`];
  // The fee itself is already on the dialog ('Cargo por cancelación').
  const lines = [`Tu abono de ${formatCLP(depositPaid)} se aplica al cargo.`];
  if (settlement.feeDue > 0) lines.push(`Quedarán por pagar ${formatCLP(settlement.feeDue)}.`);
  if (settlement.depositRefund > 0) {
    lines.push(`Te devolveremos ${formatCLP(settlement.depositRefund)} del abono.`);
  }
  return lines;
}

/** A card's DTO, field by field, with the actions the policy allows at `now`. */
function toCard(
  row: AppointmentCardRow,
  now: Date,
  money: { online: boolean; depositPaid: number },
  treatmentDescription: string | null,
): AppointmentCardData {
  // The fee counts on the price agreed at booking, as cancelAppointment does (ADR 036).
  const policy = {
    status: row.status,
    startsAt: row.startsAt,
    treatmentPrice: feeBasePrice(row.agreedPrice, row.treatmentPrice),
  };
  const cancel = cancellationDecision(policy, now);
  const reschedule = rescheduleDecision(policy, now);
  const confirm = confirmationDecision(policy, now);
  const date = clinicDate(row.startsAt);
  // Rescheduling looks up the same treatment's free times, so a card whose treatment was removed cannot offer it.
  const canReschedule = reschedule.allowed && row.treatmentSlug !== null;
  const live = cancel.allowed;
  return {
    id: row.id,
    status: row.status,
    treatmentName: treatmentNameOrFallback(row.treatmentName),
    treatmentSlug: row.treatmentSlug,
    treatmentDescription,
    date,
    dateLabel: longDate(date),
    time: clinicTime(row.startsAt),
    startsAt: row.startsAt.toISOString(),
    durationMinutes: effectiveDuration(row.durationMinutes, row.treatmentDuration),
    dentistId: row.dentistId,
    dentistName: dentistDisplayName({
      firstName: row.dentistFirstName,
      lastName: row.dentistLastName,
      title: row.dentistTitle,
    }),
    dentistPhone: row.dentistPhone
      ? { href: `tel:${row.dentistPhone}`, label: formatChileanPhone(row.dentistPhone) }
      : null,
    priceLabel: row.treatmentPrice === null ? null : formatCLP(row.treatmentPrice),
    notes: row.notes,
    cancellationFeeLabel: row.cancellationFee ? formatCLP(row.cancellationFee) : null,
    actions: {
      confirm: confirm.allowed,
      reschedule: canReschedule,
      cancel: cancel.allowed,
      rescheduleHint: live && !reschedule.allowed ? reschedule.reason : null,
    },
    cancellation: cancel.allowed
      ? {
          late: cancel.late,
          fee: cancel.fee,
          feeLabel: formatCLP(cancel.fee),
          policyText: cancellationPolicyText(cancel, formatCLP),
          depositLines: depositLines(cancel.late, cancel.fee, money.depositPaid),
        }
      : null,
    payment: cardPayment(row, now, money.online),
    calendar: row.startsAt.getTime() > now.getTime() ? calendarLinksOf(row) : null,
  };
}

/** Each treatment's deposit for this patient (the catalogue's rules cached, the patient's flag fresh): shown online, or announced as paid at the clinic. */
async function withMoney(
  db: Awaited<ReturnType<typeof getDb>>,
  patientId: string,
  online: boolean,
  treatments: TreatmentOption[],
  mustLeave: boolean,
): Promise<TreatmentOption[]> {
  // The catalogue's deposit rules change only when an admin edits them: cached a few seconds (the booking itself
  // reads them fresh and charges exactly that); the patient's own deposit flag is read every time (by the loader).
  const catalogue = await cachedDepositCatalogue();
  const moneyBySlug = bookingMoneyOf(catalogue, mustLeave);
  return treatments.map((treatment) => {
    const money = moneyBySlug.get(treatment.slug);
    if (!money || money.deposit <= 0) return { ...treatment, money: null, depositAtClinic: false };
    if (!online) return { ...treatment, money: null, depositAtClinic: true };
    return {
      ...treatment,
      money: {
        priceLabel: formatCLP(money.price),
        depositLabel: formatCLP(money.deposit),
        remainderLabel: formatCLP(money.remainder),
        holdMinutes: PAYMENT_HOLD_MINUTES,
      },
      depositAtClinic: false,
    };
  });
}

export async function loader(args: Route.LoaderArgs): Promise<AppointmentsPageData> {
  const user = await requireUser(args);
  const db = await getDb();
  const now = new Date();
  const today = clinicDate(now);
  // "today" is the clinic's date (America/Santiago), not UTC's, so upcoming starts at the clinic's midnight.
  const { upcoming, history } = await patientAppointments(db, user.id, startOfClinicDay(today));
  const [treatments, dentists] = await Promise.all([cachedTreatments(), cachedDentists()]);
  // A card's treatment description comes from the cached list (an admin's edit shows within its 60 s), not from
  // every card's row.
  const descriptions = descriptionsOf(treatments);
  const online = webpayClient() !== null;
  // Only live appointments can be cancelled, so only theirs need the paid deposit.
  const paid = await depositsPaidByAppointment(
    db,
    user.id,
    upcoming.filter((row) => row.status === "scheduled" || row.status === "confirmed").map((row) => row.id),
  );
  const card = (row: AppointmentCardRow) =>
    toCard(
      row,
      now,
      { online, depositPaid: paid.get(row.id) ?? 0 },
      row.treatmentSlug === null ? null : (descriptions.get(row.treatmentSlug) ?? null),
    );
  // The patient's deposit flag, read once: the no-shows' notice and each treatment's deposit both depend on it.
  const flags = await depositFlagsOf(db, user.id);
  // Repeated no-shows (ADR 042): without payments a call instead of online booking; with payments, why a deposit.
  const noShows = await noShowBookingStatus(db, user.id, online, now, flags);
  const booking = bookingAvailabilityOf(user.emailVerified, [...upcoming, ...history], now);
  return {
    booking:
      booking.allowed && noShows?.kind === "blocked"
        ? { allowed: false, reason: "no_shows", message: noShows.message }
        : booking,
    bookingNotice: noShows?.kind === "deposit" ? noShows.message : null,
    upcoming: upcoming.map(card),
    history: history.map(card),
    treatments: await withMoney(
      db,
      user.id,
      online,
      treatments.map((treatment) => ({
        slug: treatment.slug,
        name: treatment.name,
        description: treatment.description,
        durationMinutes: treatment.durationMinutes,
        priceLabel: formatCLP(treatment.basePrice),
      })),
      flags.mustLeaveDeposit,
    ),
    dentists: dentists.map((dentist) => ({
      id: dentist.id,
      name: dentistDisplayName(dentist),
    })),
    openDays: bookingDaysOf(today),
  };
}

export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const parsed = appointmentActionSchema.safeParse(await readForm(args.request));
  if (!parsed.success) return validationResult(parsed.error);
  const input = parsed.data;
  const db = await getDb();
  const now = new Date();
  try {
    let message: string;
    switch (input.intent) {
      case "book": {
        const result = await bookWithPayment(db, user.id, input, webpayClient(), now);
        // The slot is held 'Pendiente de pago': the browser goes on to Webpay (ADR 036).
        if (result.kind === "payment") throw checkoutRedirect(result.paymentId);
        const { booked } = result;
        const withWhom = booked.dentist ? ` con ${dentistDisplayName(booked.dentist)}` : "";
        message = `Tu cita de ${booked.treatmentName}${withWhom} quedó agendada para el ${formatDateWithWeekday(input.date)} a las ${input.time}.`;
        break;
      }
      case "reschedule":
        await rescheduleForPatient(db, user.id, input, now);
        message = `Tu cita se reprogramó para el ${formatDateWithWeekday(input.date)} a las ${input.time}.`;
        break;
      case "cancel": {
        const outcome = await cancelWithSettlement(db, user.id, input.appointmentId, now);
        message = outcome.late
          ? `Tu cita fue cancelada. Según la política de cancelación se registró un cargo de ${formatCLP(outcome.fee)}.`
          : "Tu cita fue cancelada sin costo.";
        break;
      }
      case "confirm":
        await confirmAppointment(db, user.id, input.appointmentId, now);
        message = "Tu cita quedó confirmada. ¡Te esperamos!";
        break;
      case "pay": {
        // The charge is looked up by the appointment and the session's patient, never taken from the browser.
        const chargeId = await openDepositChargeOf(db, user.id, input.appointmentId);
        const paymentId = await payCharge(db, user.id, chargeId, webpayClient(), now);
        throw checkoutRedirect(paymentId);
      }
    }
    return data<AppointmentActionResult>(actionSuccess({ intent: input.intent }, message));
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function AppointmentsRoute({ loaderData }: Route.ComponentProps) {
  return <AppointmentsPage data={loaderData} />;
}
