import { data } from "react-router";
import type { Route } from "./+types/appointments";
import { getDb, type Database } from "~/db/client.server";
import {
  BOOKING_HORIZON_DAYS,
  bookingWindowDecision,
  cancellationDecision,
  cancellationPolicyText,
  confirmationDecision,
  effectiveDuration,
  rescheduleDecision,
} from "~/domain/appointment-policy";
import { addDays, clinicDate, clinicInstant, clinicTime } from "~/domain/clinic-time";
import { formatChileanPhone, formatCLP, formatDateWithWeekday } from "~/domain/format";
import { DEFAULT_WEEK, openDays, slotTimes } from "~/domain/slots";
import {
  ANY_DENTIST,
  appointmentActionSchema,
  type AppointmentAction,
  type AppointmentActionResult,
} from "~/features/appointments/appointment-schema";
import {
  listDentists,
  listTreatments,
  patientAppointment,
  patientAppointments,
  scheduleBlocks,
  type AppointmentCardRow,
} from "~/features/appointments/appointment-repository.server";
import {
  assertMayBook,
  bookAppointment,
  bookingAvailability,
  cancelAppointment,
  confirmAppointment,
  rescheduleAppointment,
} from "~/features/appointments/appointment-service.server";
import { AppointmentsPage } from "~/features/appointments/components/appointments-page";
import type {
  AppointmentCardData,
  AppointmentsPageData,
  DayOption,
} from "~/features/appointments/components/appointment-types";
import { AppError } from "~/lib/errors";
import { errorResponse } from "~/lib/errors.server";
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

const weekdayShort = new Intl.DateTimeFormat("es-CL", { weekday: "short", timeZone: "UTC" });
const dayShort = new Intl.DateTimeFormat("es-CL", { day: "numeric", month: "short", timeZone: "UTC" });

function dayOption(date: string, today: string): DayOption {
  const noonUtc = new Date(`${date}T12:00:00Z`);
  return {
    date,
    label: longDate(date),
    weekdayShort: weekdayShort.format(noonUtc).replace(".", ""),
    dayShort: dayShort.format(noonUtc).replace(".", ""),
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
    treatmentName: row.treatmentName ?? "Cita dental",
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
  // DESIGN decision 8: "today" is the clinic's date, so upcoming starts at the clinic's midnight.
  const { upcoming, history } = await patientAppointments(db, user.id, clinicInstant(today, "00:00"));
  const [treatments, dentists] = await Promise.all([cachedTreatments(), cachedDentists()]);
  return {
    booking: await bookingAvailability(db, user.id, now),
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

/**
 * Refuses (400) a date and time that can never be booked, whatever the calendar holds: a past day, a day beyond the
 * booking horizon, a day none of the dentists works, a time that is not one of the schedule's start times, or less
 * than an hour ahead. A valid time that is simply taken is left to the service, which answers 409.
 */
async function assertBookableTime(
  db: Database,
  target: { dentistIds: string[]; date: string; time: string; durationMinutes: number },
  now: Date,
) {
  const today = clinicDate(now);
  if (target.date < today) throw new AppError("VALIDATION", "No se puede agendar en una fecha pasada.");
  if (target.date > addDays(today, BOOKING_HORIZON_DAYS)) {
    throw new AppError(
      "VALIDATION",
      `Solo se puede agendar hasta ${BOOKING_HORIZON_DAYS} días hacia adelante.`,
    );
  }
  const blocks = await scheduleBlocks(db, target.dentistIds);
  const times = new Set(
    target.dentistIds.flatMap((id) => {
      // As in the service: a dentist without a schedule of their own works the clinic's hours.
      const own = blocks.get(id);
      return slotTimes(target.date, own && own.length > 0 ? own : DEFAULT_WEEK, target.durationMinutes);
    }),
  );
  if (times.size === 0) throw new AppError("VALIDATION", "La clínica no atiende ese día. Elige otra fecha.");
  if (!times.has(target.time)) {
    throw new AppError(
      "VALIDATION",
      "Ese horario no está en la agenda de la clínica. Elige uno de los horarios libres.",
    );
  }
  const window = bookingWindowDecision(clinicInstant(target.date, target.time), now);
  if (!window.allowed) throw new AppError("VALIDATION", window.reason);
}

async function bookForPatient(
  db: Database,
  patientId: string,
  input: Extract<AppointmentAction, { intent: "book" }>,
  now: Date,
) {
  // First, so an unverified or full account hears why before any detail of the chosen slot is judged.
  await assertMayBook(db, patientId, now);
  const treatment = (await listTreatments(db)).find((candidate) => candidate.slug === input.treatment);
  if (!treatment) throw new AppError("VALIDATION", "Elige un tratamiento de la lista.");
  const dentists = await listDentists(db);
  const chosen =
    input.dentist === ANY_DENTIST ? dentists : dentists.filter((dentist) => dentist.id === input.dentist);
  if (chosen.length === 0) throw new AppError("VALIDATION", "Elige un dentista de la lista.");
  await assertBookableTime(
    db,
    {
      dentistIds: chosen.map((dentist) => dentist.id),
      date: input.date,
      time: input.time,
      durationMinutes: treatment.durationMinutes,
    },
    now,
  );
  const booked = await bookAppointment(
    db,
    patientId,
    {
      treatmentSlug: treatment.slug,
      dentistId: input.dentist,
      date: input.date,
      time: input.time,
      notes: input.notes,
    },
    now,
  );
  const assigned = chosen.find((dentist) => dentist.id === booked.dentistId);
  const withWhom = assigned ? ` con ${dentistName(assigned.firstName, assigned.lastName)}` : "";
  return `Tu cita de ${treatment.name}${withWhom} quedó agendada para el ${formatDateWithWeekday(input.date)} a las ${input.time}.`;
}

async function rescheduleForPatient(
  db: Database,
  patientId: string,
  input: Extract<AppointmentAction, { intent: "reschedule" }>,
  now: Date,
) {
  // Selected by the session's patient: a foreign id looks exactly like a missing one (404).
  const current = await patientAppointment(db, patientId, input.appointmentId);
  if (!current) throw new AppError("NOT_FOUND", "No encontramos esa cita.");
  const decision = rescheduleDecision(
    { status: current.status, startsAt: current.startsAt, treatmentPrice: current.treatmentPrice },
    now,
  );
  if (!decision.allowed) throw new AppError("VALIDATION", decision.reason);
  if (clinicDate(current.startsAt) === input.date && clinicTime(current.startsAt) === input.time) {
    throw new AppError("VALIDATION", "Tu cita ya está en ese horario. Elige otro.");
  }
  await assertBookableTime(
    db,
    {
      dentistIds: [current.dentistId],
      date: input.date,
      time: input.time,
      durationMinutes: effectiveDuration(current.durationMinutes, current.treatmentDuration),
    },
    now,
  );
  await rescheduleAppointment(
    db,
    patientId,
    input.appointmentId,
    { date: input.date, time: input.time },
    now,
  );
  return `Tu cita se reprogramó para el ${formatDateWithWeekday(input.date)} a las ${input.time}.`;
}

export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const parsed = appointmentActionSchema.safeParse(await readForm(args.request));
  if (!parsed.success) {
    return data<AppointmentActionResult>(
      { ok: false, error: parsed.error.issues[0]?.message ?? "La solicitud no es válida." },
      { status: 400 },
    );
  }
  const input = parsed.data;
  const db = await getDb();
  const now = new Date();
  try {
    let message: string;
    switch (input.intent) {
      case "book":
        message = await bookForPatient(db, user.id, input, now);
        break;
      case "reschedule":
        message = await rescheduleForPatient(db, user.id, input, now);
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
    return data<AppointmentActionResult>({ ok: true, intent: input.intent, message });
  } catch (error) {
    return errorResponse(error);
  }
}

export default function AppointmentsRoute({ loaderData }: Route.ComponentProps) {
  return <AppointmentsPage data={loaderData} />;
}
