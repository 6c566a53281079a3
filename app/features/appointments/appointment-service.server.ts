import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { appointments, treatmentsCatalog } from "~/db/schema";
import { isLiveAppointment } from "~/domain/appointment-status";
import {
  BOOKING_HORIZON_MESSAGE,
  bookingDateDecision,
  bookingWindowDecision,
  cancellationDecision,
  confirmationDecision,
  earliestBookableStart,
  effectiveDuration,
  isBeyondBookingHorizon,
  rescheduleDecision,
} from "~/domain/appointment-policy";
import { clinicDate, clinicDayBounds, clinicInstant, clinicTime } from "~/domain/clinic-time";
import { formatChileanPhone } from "~/domain/format";
import { feeBasePrice } from "~/domain/payments";
import { freeSlots, isClosedDay, slotTimes, workingBlocks, type ScheduleBlock } from "~/domain/slots";
import { clinicFacts, env } from "~/lib/base/env.server";
import {
  AppError,
  DEADLOCK_DETECTED,
  EXCLUSION_VIOLATION,
  postgresConstraint,
  postgresErrorCode,
} from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import {
  busyIntervals,
  patientBusyIntervals,
  countUpcomingAppointments,
  listDentists,
  lockPatientForBooking,
  patientAppointment,
  patientEmailVerified,
  patientHasOverlap,
  scheduleBlocks,
  treatmentBySlug,
} from "./appointment-repository.server";
import { queueDentalinkWriteThrough } from "~/features/dentalink-sync/dentalink-writethrough.server";
import { assignFormsForAppointment } from "~/features/forms/form-service.server";
import { notifyAppointment } from "./appointment-notifications.server";
import { recordFreedSlot } from "./freed-slot-repository.server";
import { ANY_DENTIST } from "./appointment-schema";
import type { BookingAvailability } from "./components/appointment-types";

// Reads with no rule of their own: published unchanged, since other modules may not import the repository.
export {
  listDentists,
  listTreatments,
  patientAppointments,
  patientAppointmentSummary,
  type AppointmentCardRow,
} from "./appointment-repository.server";

const SLOT_TAKEN =
  "Ese horario ya no está disponible: alguien lo tomó hace un momento. Elige otro, por favor.";
const PATIENT_BUSY = "Ya tienes otra cita a esa hora. Elige otro horario.";

/**
 * The database refused an overlap: of the patient (constraint appointments_patient_no_overlap) or the dentist.
 * Two simultaneous inserts into one slot can also wait on each other while PostgreSQL checks the exclusion
 * constraint; it then aborts one of them as a deadlock, and the other keeps the slot: same answer for the loser.
 */
function overlapError(error: unknown): AppError | null {
  const code = postgresErrorCode(error);
  if (code === DEADLOCK_DETECTED) return new AppError("CONFLICT", SLOT_TAKEN);
  if (code !== EXCLUSION_VIOLATION) return null;
  return new AppError(
    "CONFLICT",
    postgresConstraint(error) === "appointments_patient_no_overlap" ? PATIENT_BUSY : SLOT_TAKEN,
  );
}

export interface SlotQuery {
  treatmentSlug: string;
  /** A dentist id, or "any". */
  dentistId: string;
  date: string;
  /**
   * The signed-in patient asking: times that overlap one of their own live appointments (with any dentist) are left
   * out, so the picker never offers what the booking would refuse with PATIENT_BUSY (issue 24, item 3).
   */
  forPatientId?: string;
}

export interface SlotOption {
  time: string;
  /** The dentists free at that time (the first one is used for "any"). */
  dentistIds: string[];
}

const UNKNOWN_TREATMENT = "Elige un tratamiento de la lista.";

/** The dentist chosen in a form, or every dentist for "any"; an unknown id is a validation error. */
async function dentistsFor(db: Database, dentistId: string) {
  const all = await listDentists(db);
  const chosen = dentistId === ANY_DENTIST ? all : all.filter((candidate) => candidate.id === dentistId);
  if (chosen.length === 0) throw new AppError("VALIDATION", "Elige un dentista de la lista.");
  return chosen;
}

async function knownTreatment(db: Pick<Database, "select">, slug: string) {
  const treatment = await treatmentBySlug(db, slug);
  if (!treatment) throw new AppError("VALIDATION", UNKNOWN_TREATMENT);
  return treatment;
}

function blocksOf(byDentist: Map<string, ScheduleBlock[]>, dentistId: string): readonly ScheduleBlock[] {
  return workingBlocks(byDentist.get(dentistId));
}

/**
 * Free start times for a treatment on a clinic date, for one dentist or any. A date beyond the booking horizon is
 * refused (400); a past date simply has none.
 */
export async function availableSlots(
  db: Database,
  query: SlotQuery,
  now = new Date(),
): Promise<SlotOption[]> {
  if (isBeyondBookingHorizon(query.date, clinicDate(now))) {
    throw new AppError("VALIDATION", BOOKING_HORIZON_MESSAGE);
  }
  const treatment = await knownTreatment(db, query.treatmentSlug);
  if (query.date < clinicDate(now)) return [];
  const dentists = await dentistsFor(db, query.dentistId);
  const ids = dentists.map((candidate) => candidate.id);
  const day = clinicDayBounds(query.date);
  const [blocks, busy, ownBusy] = await Promise.all([
    scheduleBlocks(db, ids),
    busyIntervals(db, ids, day.start, day.end),
    query.forPatientId ? patientBusyIntervals(db, query.forPatientId, day.start, day.end) : [],
  ]);
  const earliest = earliestBookableStart(now);
  const byTime = new Map<string, string[]>();
  for (const id of ids) {
    const dentistBlocks = blocksOf(blocks, id);
    if (isClosedDay(query.date, dentistBlocks)) continue;
    for (const slot of freeSlots({
      date: query.date,
      blocks: dentistBlocks,
      durationMinutes: treatment.durationMinutes,
      busy: [...(busy.get(id) ?? []), ...ownBusy],
      earliest,
    })) {
      byTime.set(slot.time, [...(byTime.get(slot.time) ?? []), id]);
    }
  }
  return [...byTime.entries()]
    .toSorted(([a], [b]) => a.localeCompare(b))
    .map(([time, dentistIds]) => ({ time, dentistIds }));
}

const UNVERIFIED_EMAIL =
  "Para agendar una cita necesitas confirmar tu correo. Usa el enlace que te enviamos o pide uno nuevo desde Mi Portal.";

function upcomingLimitMessage(max: number) {
  return `Ya tienes ${max} citas próximas, el máximo que se puede agendar en línea. Para agendar otra, cancela una de ellas o llámanos al ${formatChileanPhone(clinicFacts().phone)}.`;
}

/**
 * Whether the patient may book a new appointment: only with a confirmed e-mail (throwaway accounts must not fill
 * the agenda) and below MAX_UPCOMING_APPOINTMENTS upcoming appointments. Read from the database, not the session.
 */
export async function bookingAvailability(
  db: Pick<Database, "select">,
  patientId: string,
  now = new Date(),
): Promise<BookingAvailability> {
  if (!(await patientEmailVerified(db, patientId))) return bookingAllowance(false, 0);
  return bookingAllowance(true, await countUpcomingAppointments(db, patientId, now));
}

/**
 * The same decision from what the Mis Citas loader already read in this request: the session lookup's e-mail
 * verification (a database read on every request, never cached) and all of the patient's appointments.
 */
export function bookingAvailabilityOf(
  emailVerified: boolean,
  appointmentList: readonly { status: string; startsAt: Date }[],
  now: Date,
): BookingAvailability {
  const upcoming = appointmentList.filter(
    (row) => isLiveAppointment(row.status) && row.startsAt.getTime() > now.getTime(),
  ).length;
  return bookingAllowance(emailVerified, upcoming);
}

function bookingAllowance(emailVerified: boolean, upcoming: number): BookingAvailability {
  if (!emailVerified) return { allowed: false, reason: "unverified", message: UNVERIFIED_EMAIL };
  const max = env().MAX_UPCOMING_APPOINTMENTS;
  if (upcoming >= max) return { allowed: false, reason: "limit", message: upcomingLimitMessage(max) };
  return { allowed: true };
}

/** Throws the refusal of `bookingAvailability`: 403 for an unverified e-mail, 409 at the cap. */
export async function assertMayBook(db: Pick<Database, "select">, patientId: string, now = new Date()) {
  const availability = await bookingAvailability(db, patientId, now);
  if (availability.allowed) return;
  throw new AppError(availability.reason === "unverified" ? "FORBIDDEN" : "CONFLICT", availability.message);
}

export interface BookingInput extends SlotQuery {
  time: string;
  notes?: string;
}

/** What a booking that waits for its deposit passes (ADR 036). */
export interface BookingOptions {
  /** Hold the slot as "Pendiente de pago" until then: no confirmation message, no Dentalink write until it is paid. */
  hold?: { expiresAt: Date };
  /** Runs inside the booking's transaction once the row exists (the deposit's charge is written there). */
  inTransaction?: (
    tx: Database,
    booked: { id: string; dentistId: string; startsAt: Date; treatmentName: string; price: number },
  ) => Promise<void>;
}

/**
 * Books a slot for the signed-in patient. Availability is checked again inside the transaction and the database's
 * exclusion constraint decides between simultaneous requests: exactly one wins, the others get a clear message.
 * Whether the patient may book at all (`assertMayBook`) is decided inside the transaction too, with the patient's
 * row locked, so simultaneous bookings of one patient cannot pass the cap together.
 */
export async function bookAppointment(
  db: Database,
  patientId: string,
  input: BookingInput,
  now = new Date(),
  options: BookingOptions = {},
) {
  const slots = await availableSlots(db, input, now);
  const slot = slots.find((candidate) => candidate.time === input.time);
  if (!slot) throw new AppError("CONFLICT", SLOT_TAKEN);
  const treatment = await knownTreatment(db, input.treatmentSlug);
  const startsAt = clinicInstant(input.date, input.time);
  const window = bookingWindowDecision(startsAt, now);
  if (!window.allowed) throw new AppError("VALIDATION", window.reason);
  const endsAt = new Date(startsAt.getTime() + treatment.durationMinutes * 60_000);

  for (const dentistId of slot.dentistIds) {
    try {
      const created = await db.transaction(async (tx) => {
        await lockPatientForBooking(tx, patientId);
        await assertMayBook(tx, patientId, now);
        if (await patientHasOverlap(tx, patientId, startsAt, endsAt)) {
          throw new AppError("CONFLICT", PATIENT_BUSY);
        }
        const [row] = await tx
          .insert(appointments)
          .values({
            patientId,
            dentistId,
            treatmentId: treatment.id,
            startsAt,
            endsAt,
            status: options.hold ? "pending_payment" : "scheduled",
            paymentHoldExpiresAt: options.hold?.expiresAt ?? null,
            agreedPrice: treatment.basePrice,
            notes: input.notes || null,
          })
          .returning({ id: appointments.id });
        if (!row) throw new Error("insert returned nothing");
        if (!options.hold) {
          await announceBooking(tx, {
            appointmentId: row.id,
            patientId,
            dentistId,
            treatment: treatment.name,
            startsAt,
            endsAt,
          });
        }
        await options.inTransaction?.(tx, {
          id: row.id,
          dentistId,
          startsAt,
          treatmentName: treatment.name,
          price: treatment.basePrice,
        });
        return row;
      });
      logger.info({ appointmentId: created.id, dentistId }, "appointment booked");
      return { id: created.id, startsAt, dentistId };
    } catch (error) {
      const overlap = overlapError(error);
      if (!overlap) throw error;
      if (overlap.message === PATIENT_BUSY) throw overlap;
      // Someone took this dentist's slot between our check and our insert: try the next free dentist, if any.
    }
  }
  throw new AppError("CONFLICT", SLOT_TAKEN);
}

/**
 * A booking becomes real: its intake and consent forms (first, so the confirmation can link them), the confirmation
 * messages and the Dentalink write-through, in the caller's transaction.
 */
async function announceBooking(
  tx: Database,
  booking: {
    appointmentId: string;
    patientId: string;
    dentistId: string;
    treatment: string;
    startsAt: Date;
    endsAt: Date;
  },
) {
  const forms = await assignFormsForAppointment(tx, {
    appointmentId: booking.appointmentId,
    patientId: booking.patientId,
  });
  await notifyAppointment(tx, { event: "booked", ...booking, formsToFill: forms.length });
  await queueDentalinkWriteThrough(tx, {
    appointmentId: booking.appointmentId,
    action: "book",
    startsAt: booking.startsAt,
    endsAt: booking.endsAt,
  });
}

async function ownAppointment(db: Database, patientId: string, appointmentId: string) {
  const row = await patientAppointment(db, patientId, appointmentId);
  if (!row) throw new AppError("NOT_FOUND", "No encontramos esa cita.");
  return row;
}

/** The fee is counted on the price agreed at booking, when it was recorded (ADR 036). */
const policyView = (row: {
  status: string;
  startsAt: Date;
  treatmentPrice: number | null;
  agreedPrice: number | null;
}) => ({
  status: row.status,
  startsAt: row.startsAt,
  treatmentPrice: feeBasePrice(row.agreedPrice, row.treatmentPrice),
});

/**
 * Refuses (400) a date and time that can never be booked, whatever the calendar holds: a past day, a day beyond the
 * booking horizon, a day none of the dentists works, a time that is not one of the schedule's start times, or less
 * than the minimum notice ahead. A valid time that is simply taken is left to the booking, which answers 409.
 */
async function assertBookableTime(
  db: Database,
  target: { dentistIds: string[]; date: string; time: string; durationMinutes: number },
  now: Date,
) {
  const date = bookingDateDecision(target.date, clinicDate(now));
  if (!date.allowed) throw new AppError("VALIDATION", date.reason);
  const blocks = await scheduleBlocks(db, target.dentistIds);
  const times = new Set(
    target.dentistIds.flatMap((id) => slotTimes(target.date, blocksOf(blocks, id), target.durationMinutes)),
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

export interface BookingRequest {
  treatment: string;
  /** A dentist id or "any". */
  dentist: string;
  date: string;
  time: string;
  notes?: string;
}

/**
 * The patient's booking from the form: may they book at all, is the treatment and dentist known, is the time one
 * the clinic could ever offer; then `bookAppointment`. Answers what the confirmation names.
 */
export async function bookForPatient(
  db: Database,
  patientId: string,
  input: BookingRequest,
  now = new Date(),
  options: BookingOptions = {},
) {
  // First, so an unverified or full account hears why before any detail of the chosen slot is judged.
  await assertMayBook(db, patientId, now);
  const treatment = await knownTreatment(db, input.treatment);
  const chosen = await dentistsFor(db, input.dentist);
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
    options,
  );
  const assigned = chosen.find((dentist) => dentist.id === booked.dentistId);
  return {
    ...booked,
    treatmentName: treatment.name,
    dentist: assigned
      ? { firstName: assigned.firstName, lastName: assigned.lastName, title: assigned.title }
      : null,
  };
}

/**
 * The patient's reschedule from the form: their own appointment (a foreign id is a 404), the 24-hour rule, a
 * different time the clinic could offer; then `rescheduleAppointment`.
 */
export async function rescheduleForPatient(
  db: Database,
  patientId: string,
  input: { appointmentId: string; date: string; time: string },
  now = new Date(),
) {
  const current = await ownAppointment(db, patientId, input.appointmentId);
  const decision = rescheduleDecision(policyView(current), now);
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
  return rescheduleAppointment(
    db,
    patientId,
    input.appointmentId,
    { date: input.date, time: input.time },
    now,
  );
}

const CHANGED_MEANWHILE = "La cita cambió mientras tanto. Recarga la página.";

/**
 * Updates one of the patient's appointments only while it is still in one of `fromStatuses`; if it changed in the
 * meantime (another tab, the clinic), nothing is written and the patient is told to reload.
 */
async function updateOwnAppointment(
  tx: Pick<Database, "update">,
  patientId: string,
  appointmentId: string,
  fromStatuses: string[],
  changes: Partial<typeof appointments.$inferInsert>,
) {
  const updated = await tx
    .update(appointments)
    .set({ ...changes, updatedAt: new Date() })
    .where(
      and(
        eq(appointments.id, appointmentId),
        eq(appointments.patientId, patientId),
        inArray(appointments.status, fromStatuses),
      ),
    )
    .returning({ updatedAt: appointments.updatedAt });
  if (!updated[0]) throw new AppError("CONFLICT", CHANGED_MEANWHILE);
  return updated[0].updatedAt;
}

/** Moves one of the patient's appointments to another free slot of the same dentist and treatment. */
export async function rescheduleAppointment(
  db: Database,
  patientId: string,
  appointmentId: string,
  target: { date: string; time: string },
  now = new Date(),
) {
  const current = await ownAppointment(db, patientId, appointmentId);
  const decision = rescheduleDecision(policyView(current), now);
  if (!decision.allowed) throw new AppError("VALIDATION", decision.reason);
  const startsAt = clinicInstant(target.date, target.time);
  const window = bookingWindowDecision(startsAt, now);
  if (!window.allowed) throw new AppError("VALIDATION", window.reason);
  const duration = effectiveDuration(current.durationMinutes, current.treatmentDuration);
  const endsAt = new Date(startsAt.getTime() + duration * 60_000);

  const day = clinicDayBounds(target.date);
  const [blocks, busy] = await Promise.all([
    scheduleBlocks(db, [current.dentistId]),
    busyIntervals(db, [current.dentistId], day.start, day.end, appointmentId),
  ]);
  const free = freeSlots({
    date: target.date,
    blocks: blocksOf(blocks, current.dentistId),
    durationMinutes: duration,
    busy: busy.get(current.dentistId) ?? [],
    earliest: earliestBookableStart(now),
  });
  if (!free.some((slot) => slot.time === target.time)) throw new AppError("CONFLICT", SLOT_TAKEN);

  try {
    await db.transaction(async (tx) => {
      if (await patientHasOverlap(tx, patientId, startsAt, endsAt, appointmentId)) {
        throw new AppError("CONFLICT", PATIENT_BUSY);
      }
      // A new time is a new appointment to confirm: the confirmation (and its figure) starts over.
      const changedAt = await updateOwnAppointment(tx, patientId, appointmentId, ["scheduled", "confirmed"], {
        startsAt,
        endsAt,
        status: "scheduled",
        confirmedAt: null,
      });
      await notifyAppointment(tx, {
        event: "rescheduled",
        appointmentId,
        patientId,
        dentistId: current.dentistId,
        treatment: current.treatmentName ?? "tu tratamiento",
        startsAt,
        previousStartsAt: current.startsAt,
        // An appointment may be moved more than once; each move is its own event.
        occurrence: changedAt.toISOString(),
      });
      await queueDentalinkWriteThrough(tx, {
        appointmentId,
        action: "reschedule",
        startsAt,
        endsAt,
        occurrence: changedAt.toISOString(),
      });
      // The old time is free for the waitlist (ADR 040); never offered back to this patient.
      await recordFreedSlot(
        tx,
        {
          dentistId: current.dentistId,
          startsAt: current.startsAt,
          endsAt: current.endsAt,
          reason: "reagendamiento",
          sourceAppointmentId: appointmentId,
          freedByPatientId: patientId,
        },
        now,
      );
    });
  } catch (error) {
    throw overlapError(error) ?? error;
  }
  return { startsAt };
}

/** What a cancellation passes to the caller's settlement (ADR 036), inside its transaction. */
export interface CancellationOptions {
  inTransaction?: (
    tx: Database,
    cancelled: { appointmentId: string; patientId: string; late: boolean; fee: number; wasHeld: boolean },
  ) => Promise<void>;
}

/**
 * Cancels with the 24-hour policy; a late cancellation records the 50% fee on the appointment. A booking still
 * waiting for its deposit is simply let go: it was never confirmed, so it costs nothing and announces nothing.
 */
export async function cancelAppointment(
  db: Database,
  patientId: string,
  appointmentId: string,
  now = new Date(),
  options: CancellationOptions = {},
) {
  const current = await ownAppointment(db, patientId, appointmentId);
  const wasHeld = current.status === "pending_payment";
  const decision = cancellationDecision(policyView(current), now);
  if (!decision.allowed) throw new AppError("VALIDATION", decision.reason);
  await db.transaction(async (tx) => {
    await updateOwnAppointment(
      tx,
      patientId,
      appointmentId,
      wasHeld ? ["pending_payment"] : ["scheduled", "confirmed"],
      {
        status: "cancelled",
        cancelledAt: now,
        cancellationFee: decision.fee,
        paymentHoldExpiresAt: null,
      },
    );
    if (!wasHeld) {
      await notifyAppointment(tx, {
        event: "cancelled",
        appointmentId,
        patientId,
        dentistId: current.dentistId,
        treatment: current.treatmentName ?? "tu tratamiento",
        startsAt: current.startsAt,
        fee: decision.fee,
      });
      await queueDentalinkWriteThrough(tx, {
        appointmentId,
        action: "cancel",
        startsAt: current.startsAt,
        endsAt: current.endsAt,
      });
    }
    // The time is free for the waitlist (ADR 040); never offered back to this patient.
    await recordFreedSlot(
      tx,
      {
        dentistId: current.dentistId,
        startsAt: current.startsAt,
        endsAt: current.endsAt,
        reason: "cancelacion",
        sourceAppointmentId: appointmentId,
        freedByPatientId: patientId,
      },
      now,
    );
    await options.inTransaction?.(tx, {
      appointmentId,
      patientId,
      late: decision.late,
      fee: decision.fee,
      wasHeld,
    });
  });
  return { fee: decision.fee, late: decision.late };
}

/**
 * A held booking whose deposit was paid (ADR 036): confirmed, announced and written through to Dentalink. A booking
 * released meanwhile is booked again only if its slot is still free (the exclusion constraints decide, inside a
 * savepoint so that a refusal leaves the caller's transaction usable). Answers whether it is now confirmed.
 */
export async function confirmPaidBooking(tx: Database, appointmentId: string): Promise<boolean> {
  let row: typeof appointments.$inferSelect | undefined;
  try {
    row = await tx.transaction(async (savepoint) => {
      const [updated] = await savepoint
        .update(appointments)
        .set({
          status: "confirmed",
          confirmedAt: new Date(),
          paymentHoldExpiresAt: null,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(appointments.id, appointmentId),
            inArray(appointments.status, ["pending_payment", "payment_failed"]),
          ),
        )
        .returning();
      return updated;
    });
  } catch (error) {
    if (overlapError(error)) return false;
    throw error;
  }
  if (!row) return false;
  const [treatment] = row.treatmentId
    ? await tx
        .select({ name: treatmentsCatalog.name })
        .from(treatmentsCatalog)
        .where(eq(treatmentsCatalog.id, row.treatmentId))
    : [];
  await announceBooking(tx, {
    appointmentId: row.id,
    patientId: row.patientId,
    dentistId: row.dentistId,
    treatment: treatment?.name ?? "tu tratamiento",
    startsAt: row.startsAt,
    endsAt: row.endsAt,
  });
  logger.info({ appointmentId }, "held appointment confirmed by its deposit");
  return true;
}

/**
 * A held booking whose deposit was not paid in time (or was refused): it frees its slot, recorded for the waitlist
 * in the same transaction (ADR 040). Answers whether it did.
 */
export async function releaseHeldBooking(
  tx: Pick<Database, "transaction">,
  appointmentId: string,
  now = new Date(),
): Promise<boolean> {
  return tx.transaction(async (inner) => {
    const [released] = await inner
      .update(appointments)
      .set({ status: "payment_failed", paymentHoldExpiresAt: null, updatedAt: new Date() })
      .where(and(eq(appointments.id, appointmentId), eq(appointments.status, "pending_payment")))
      .returning({
        id: appointments.id,
        dentistId: appointments.dentistId,
        patientId: appointments.patientId,
        startsAt: appointments.startsAt,
        endsAt: appointments.endsAt,
      });
    if (!released) return false;
    await recordFreedSlot(
      inner,
      {
        dentistId: released.dentistId,
        startsAt: released.startsAt,
        endsAt: released.endsAt,
        reason: "pago_vencido",
        sourceAppointmentId: released.id,
        freedByPatientId: released.patientId,
      },
      now,
    );
    return true;
  });
}

/**
 * 'Reintentar pago': a released booking of this patient takes its slot again for a new hold, if the slot is still
 * free and still far enough ahead; otherwise the patient is told to choose another time.
 */
export async function reholdBooking(
  db: Database,
  patientId: string,
  appointmentId: string,
  expiresAt: Date,
  now = new Date(),
) {
  const current = await ownAppointment(db, patientId, appointmentId);
  if (current.status === "pending_payment") return current;
  if (current.status !== "payment_failed") throw new AppError("CONFLICT", "Esta cita ya no espera un pago.");
  const window = bookingWindowDecision(current.startsAt, now);
  if (!window.allowed) throw new AppError("CONFLICT", SLOT_GONE);
  try {
    await db.transaction(async (tx) => {
      await lockPatientForBooking(tx, patientId);
      await assertMayBook(tx, patientId, now);
      await updateOwnAppointment(tx, patientId, appointmentId, ["payment_failed"], {
        status: "pending_payment",
        paymentHoldExpiresAt: expiresAt,
      });
    });
  } catch (error) {
    if (overlapError(error)) throw new AppError("CONFLICT", SLOT_GONE);
    throw error;
  }
  return current;
}

const SLOT_GONE =
  "Ese horario ya no está disponible para reintentar el pago. Agenda una nueva cita con otro horario, por favor.";

export async function confirmAppointment(
  db: Database,
  patientId: string,
  appointmentId: string,
  now = new Date(),
) {
  const current = await ownAppointment(db, patientId, appointmentId);
  const decision = confirmationDecision(policyView(current), now);
  if (!decision.allowed) throw new AppError("VALIDATION", decision.reason);
  // `confirmed_at`: when it became confirmed (issue 23's confirmation rate reads it).
  await updateOwnAppointment(db, patientId, appointmentId, ["scheduled"], {
    status: "confirmed",
    confirmedAt: now,
  });
}
