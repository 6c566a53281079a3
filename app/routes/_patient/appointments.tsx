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
  formatCLP,
  formatDateWithWeekday,
  formatShortDay,
  formatWeekdayShort,
} from "~/domain/format";
import { DEFAULT_WEEK, openDays } from "~/domain/slots";
import {
  appointmentActionSchema,
  type AppointmentActionResult,
} from "~/features/appointments/appointment-schema";
import {
  bookForPatient,
  bookingAvailabilityOf,
  cancelAppointment,
  confirmAppointment,
  listDentists,
  listTreatments,
  patientAppointments,
  rescheduleForPatient,
  type AppointmentCardRow,
} from "~/features/appointments/appointment-service.server";
import { AppointmentsPage } from "~/features/appointments/components/appointments-page";
import type {
  AppointmentCardData,
  AppointmentsPageData,
  DayOption,
} from "~/features/appointments/components/appointment-types";
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

function dentistName(firstName: string, lastName: string) {
  return `Dr. ${[firstName, lastName].filter(Boolean).join(" ")}`;
}

/** A card's DTO, field by field, with the actions the policy allows at `now`. */
function toCard(row: AppointmentCardRow, now: Date): AppointmentCardData {
  const policy = { status: row.status, startsAt: row.startsAt, treatmentPrice: row.treatmentPrice };
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
    treatmentDescription: row.treatmentDescription,
    date,
    dateLabel: longDate(date),
    time: clinicTime(row.startsAt),
    startsAt: row.startsAt.toISOString(),
    durationMinutes: effectiveDuration(row.durationMinutes, row.treatmentDuration),
    dentistId: row.dentistId,
    dentistName: dentistName(row.dentistFirstName, row.dentistLastName),
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
        }
      : null,
  };
}

export async function loader(args: Route.LoaderArgs): Promise<AppointmentsPageData> {
  const user = await requireUser(args);
  const db = await getDb();
  const now = new Date();
  const today = clinicDate(now);
  // "today" is the clinic's date (America/Santiago), not UTC's, so upcoming starts at the clinic's midnight.
  const { upcoming, history } = await patientAppointments(db, user.id, startOfClinicDay(today));
  const [treatments, dentists] = await Promise.all([cachedTreatments(), cachedDentists()]);
  return {
    booking: bookingAvailabilityOf(user.emailVerified, [...upcoming, ...history], now),
    upcoming: upcoming.map((row) => toCard(row, now)),
    history: history.map((row) => toCard(row, now)),
    treatments: treatments.map((treatment) => ({
      slug: treatment.slug,
      name: treatment.name,
      description: treatment.description,
      durationMinutes: treatment.durationMinutes,
      priceLabel: formatCLP(treatment.basePrice),
    })),
    dentists: dentists.map((dentist) => ({
      id: dentist.id,
      name: dentistName(dentist.firstName, dentist.lastName),
    })),
    openDays: openDays(today, OPEN_DAYS_OFFERED, DEFAULT_WEEK).map((date) => dayOption(date, today)),
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
        const booked = await bookForPatient(db, user.id, input, now);
        const withWhom = booked.dentist
          ? ` con ${dentistName(booked.dentist.firstName, booked.dentist.lastName)}`
          : "";
        message = `Tu cita de ${booked.treatmentName}${withWhom} quedó agendada para el ${formatDateWithWeekday(input.date)} a las ${input.time}.`;
        break;
      }
      case "reschedule":
        await rescheduleForPatient(db, user.id, input, now);
        message = `Tu cita se reprogramó para el ${formatDateWithWeekday(input.date)} a las ${input.time}.`;
        break;
      case "cancel": {
        const outcome = await cancelAppointment(db, user.id, input.appointmentId, now);
        message = outcome.late
          ? `Tu cita fue cancelada. Según la política de cancelación se registró un cargo de ${formatCLP(outcome.fee)}.`
          : "Tu cita fue cancelada sin costo.";
        break;
      }
      case "confirm":
        await confirmAppointment(db, user.id, input.appointmentId, now);
        message = "Tu cita quedó confirmada. ¡Te esperamos!";
        break;
    }
    return data<AppointmentActionResult>(actionSuccess({ intent: input.intent }, message));
  } catch (error) {
    return appErrorResult(error);
  }
}

export default function AppointmentsRoute({ loaderData }: Route.ComponentProps) {
  return <AppointmentsPage data={loaderData} />;
}
