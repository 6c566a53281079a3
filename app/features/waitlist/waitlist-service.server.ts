import { dentistDisplayName } from "~/domain/dentist-name";
import type { Database } from "~/db/client.server";
import { isLiveAppointment } from "~/domain/appointment-status";
import {
  addDays,
  clinicDate,
  clinicDayBounds,
  clinicInstant,
  clinicTime,
  startOfClinicDay,
} from "~/domain/clinic-time";
import { formatClinicTime, formatDate, formatDateWithWeekday } from "~/domain/format";
import {
  freedSlotStatusLabels,
  isFarEnoughToOffer,
  nextBatchAt,
  waitlistEntryStatusLabels,
  waitlistOfferStatusLabels,
  weekdayLabels,
  type FreedSlotStatus,
  type WaitlistEntryStatus,
  type WaitlistOfferStatus,
} from "~/domain/waitlist";
import {
  listDentists,
  listTreatments,
  patientAppointments,
} from "~/features/appointments/appointment-service.server";
import { ANY_DENTIST } from "~/features/appointments/appointment-schema";
import { publicBaseUrl } from "~/lib/base/env.server";
import { AppError } from "~/lib/base/errors";
import type { StaffWaitlistDay, WaitlistEntryView, WaitlistPageData } from "./waitlist-dto";
import { MAX_ACTIVE_ENTRIES, latestUntilDate, untilDateProblem, type WaitlistJoin } from "./waitlist-schema";
import { dentistNameOf, offerTo } from "./waitlist-offers.server";
import {
  activeEntries,
  activeEntriesForDay,
  countActiveEntries,
  dentistBusyDuring,
  entriesOfPatient,
  entryById,
  insertEntry,
  insertManualSlot,
  lockSlot,
  offerSlotNow,
  openSlotAt,
  recordStaffAudit,
  scheduleNextBatch,
  slotsBetween,
  withdrawEntry,
} from "./waitlist-repository.server";

const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase("es-CL") + text.slice(1);

/** The dentist an entry or slot names; an entry with no dentist takes any. */
const dentistName = (first: string | null, last: string | null, title: string | null) =>
  first === null ? "Cualquier dentista" : dentistDisplayName({ firstName: first, lastName: last, title });

function weekdaysText(weekdays: readonly number[]) {
  return weekdays.length === 0 ? "Cualquier día" : weekdays.map((day) => weekdayLabels[day] ?? "").join(", ");
}

function dayPartsText(parts: readonly string[]) {
  return parts.map((part) => (part === "manana" ? "Mañana" : "Tarde")).join(" y ");
}

const bookingLabel = (startsAt: Date, treatment: string | null) =>
  `${treatment ?? "Consulta"}, ${formatDateWithWeekday(clinicDate(startsAt))} a las ${formatClinicTime(startsAt)}`;

// ── Patient ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** The patient's waitlist page: their entries and what the join form offers. */
export async function patientWaitlistPage(
  db: Database,
  patientId: string,
  preselectAppointmentId: string | null,
  now = new Date(),
): Promise<WaitlistPageData> {
  const today = clinicDate(now);
  const [entries, treatments, dentists, bookings] = await Promise.all([
    entriesOfPatient(db, patientId),
    listTreatments(db),
    listDentists(db),
    patientAppointments(db, patientId, startOfClinicDay(today)),
  ]);
  const upcoming = bookings.upcoming.filter(
    (row) => isLiveAppointment(row.status) && row.startsAt.getTime() > now.getTime(),
  );
  const byId = new Map(upcoming.map((row) => [row.id, row]));
  const views: WaitlistEntryView[] = entries.map((entry) => {
    const linked = entry.appointmentId ? byId.get(entry.appointmentId) : undefined;
    return {
      id: entry.id,
      treatment: entry.treatmentName,
      dentist: dentistName(
        entry.dentistId ? entry.dentistFirstName : null,
        entry.dentistLastName,
        entry.dentistTitle,
      ),
      weekdays: weekdaysText(entry.weekdays),
      dayParts: dayPartsText(entry.dayParts),
      until: `Hasta el ${formatDate(entry.untilDate)}`,
      status: entry.status,
      statusLabel: waitlistEntryStatusLabels[entry.status as WaitlistEntryStatus] ?? entry.status,
      active: entry.status === "activa",
      linked: linked
        ? `Para adelantar tu cita de ${bookingLabel(linked.startsAt, linked.treatmentName)}`
        : null,
    };
  });
  const preselected = preselectAppointmentId ? byId.get(preselectAppointmentId) : undefined;
  return {
    today,
    latestUntil: latestUntilDate(today),
    entries: views,
    treatments: treatments.map((treatment) => ({ slug: treatment.slug, name: treatment.name })),
    dentists: dentists.map((dentist) => ({
      id: dentist.id,
      name: dentistName(dentist.firstName, dentist.lastName, dentist.title),
    })),
    appointments: upcoming.map((row) => ({
      id: row.id,
      label: bookingLabel(row.startsAt, row.treatmentName),
      treatmentSlug: row.treatmentSlug,
      dentistId: row.dentistId,
    })),
    preselect: preselected
      ? {
          appointmentId: preselected.id,
          treatment: preselected.treatmentSlug ?? "",
          dentist: preselected.dentistId,
        }
      : null,
    maxActive: MAX_ACTIVE_ENTRIES,
    activeCount: views.filter((view) => view.active).length,
  };
}

/**
 * Joins the waitlist: a known treatment, a dentist of the list or any, a last date between today and the booking
 * horizon, and (optionally) one of the patient's own upcoming bookings to move earlier; at most
 * `MAX_ACTIVE_ENTRIES` active entries. From today on.
 */
export async function joinWaitlist(db: Database, patientId: string, input: WaitlistJoin, now = new Date()) {
  const today = clinicDate(now);
  const problem = untilDateProblem(input.untilDate, today);
  if (problem) throw new AppError("VALIDATION", problem);
  const treatment = (await listTreatments(db)).find((row) => row.slug === input.treatment);
  if (!treatment) throw new AppError("VALIDATION", "Elige un tratamiento de la lista.");
  let dentistId: string | null = null;
  if (input.dentist !== ANY_DENTIST) {
    if (!(await listDentists(db)).some((dentist) => dentist.id === input.dentist)) {
      throw new AppError("VALIDATION", "Elige un dentista de la lista.");
    }
    dentistId = input.dentist;
  }
  if (input.appointmentId) {
    const { upcoming } = await patientAppointments(db, patientId, startOfClinicDay(today));
    const own = upcoming.find((row) => row.id === input.appointmentId && isLiveAppointment(row.status));
    // Another patient's id reads as not found, like any foreign id.
    if (!own) throw new AppError("NOT_FOUND", "No encontramos esa cita.");
  }
  return db.transaction(async (tx) => {
    if ((await countActiveEntries(tx, patientId)) >= MAX_ACTIVE_ENTRIES) {
      throw new AppError(
        "CONFLICT",
        `Ya tienes ${MAX_ACTIVE_ENTRIES} avisos activos en la lista de espera. Retira uno para agregar otro.`,
      );
    }
    return insertEntry(tx, {
      patientId,
      treatmentId: treatment.id,
      dentistId,
      appointmentId: input.appointmentId,
      weekdays: input.weekdays,
      dayParts: input.dayParts,
      earliestDate: today,
      untilDate: input.untilDate,
    });
  });
}

/** Withdraws one of the patient's own active entries; a foreign or finished one is a 404. */
export async function leaveWaitlist(db: Database, patientId: string, entryId: string, now = new Date()) {
  if (!(await withdrawEntry(db, patientId, entryId, now))) {
    throw new AppError("NOT_FOUND", "No encontramos ese aviso en tu lista de espera.");
  }
}

// ── Staff ───────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The waitlist of each day in [from, from + days): the active entries whose window holds the day (one dentist's,
 * with those for any dentist, or all) and the slots freed on it with their offers.
 */
export async function staffWaitlistDays(
  db: Database,
  options: { from: string; days: number; dentistId?: string },
): Promise<StaffWaitlistDay[]> {
  const dates = Array.from({ length: options.days }, (_, index) => addDays(options.from, index));
  const slots = await slotsBetween(
    db,
    startOfClinicDay(options.from),
    clinicDayBounds(dates.at(-1)!).end,
    options.dentistId,
  );
  const result: StaffWaitlistDay[] = [];
  for (const date of dates) {
    const entries = await activeEntriesForDay(db, date, options.dentistId);
    result.push({
      date,
      heading: capitalize(formatDateWithWeekday(date)),
      entries: entries.map((entry) => ({
        id: entry.id,
        patientName: `${entry.patientFirstName} ${entry.patientLastName}`.trim(),
        patientPhone: entry.patientPhone,
        treatment: entry.treatmentName,
        dentist: dentistName(
          entry.dentistId ? entry.dentistFirstName : null,
          entry.dentistLastName,
          entry.dentistTitle,
        ),
        dayParts: dayPartsText(entry.dayParts),
        weekdays: weekdaysText(entry.weekdays),
        until: formatDate(entry.untilDate),
        joined: formatDate(clinicDate(entry.createdAt)),
      })),
      slots: slots
        .filter((slot) => clinicDate(slot.startsAt) === date)
        .map((slot) => ({
          id: slot.id,
          dentist: dentistName(slot.dentistFirstName, slot.dentistLastName, slot.dentistTitle),
          date: slot.startsAt.toISOString(),
          time: clinicTime(slot.startsAt),
          reason: reasonLabels[slot.reason] ?? slot.reason,
          status: slot.status,
          statusLabel: freedSlotStatusLabels[slot.status as FreedSlotStatus] ?? slot.status,
          batchesSent: slot.batchesSent,
          offers: slot.offers.map((offer) => ({
            patientName: `${offer.patientFirstName} ${offer.patientLastName}`.trim(),
            batch: offer.batch,
            status: offer.status,
            statusLabel: waitlistOfferStatusLabels[offer.status as WaitlistOfferStatus] ?? offer.status,
            sentAt: formatClinicTime(offer.sentAt),
          })),
        })),
    });
  }
  return result;
}

const reasonLabels: Record<string, string> = {
  cancelacion: "Cancelación",
  reagendamiento: "Reagendamiento",
  pago_vencido: "Abono no pagado",
  manual: "Ofrecida por el equipo",
};

export interface StaffActor {
  id: string;
  roles: readonly string[];
  ip: string;
}

export interface ManualOffer {
  dentistId: string;
  date: string;
  time: string;
  durationMinutes: number;
  /** Offer to this entry only, now; otherwise the next batch goes now to the matching entries. */
  entryId?: string | null;
}

/**
 * 'Ofrecer esta hora' by hand (ADR 040): a free time of a dentist, at least two hours ahead, becomes an open freed
 * slot (reason 'manual', created by the staff member) whose next batch is due now; or, for one entry, that entry is
 * offered it at once. Audited in the same transaction.
 */
export async function offerSlotByHand(
  db: Database,
  actor: StaffActor,
  input: ManualOffer,
  now = new Date(),
  baseUrl = publicBaseUrl(),
) {
  if (!(await listDentists(db)).some((dentist) => dentist.id === input.dentistId)) {
    throw new AppError("VALIDATION", "Elige un dentista de la lista.");
  }
  const startsAt = clinicInstant(input.date, input.time);
  const endsAt = new Date(startsAt.getTime() + input.durationMinutes * 60_000);
  if (!isFarEnoughToOffer(startsAt, now)) {
    throw new AppError("VALIDATION", "Solo se pueden ofrecer horas que empiecen en dos horas o más.");
  }
  return db.transaction(async (tx) => {
    if (await dentistBusyDuring(tx, input.dentistId, startsAt, endsAt)) {
      throw new AppError("CONFLICT", "Ese horario no está libre en la agenda de ese dentista.");
    }
    const existing = await openSlotAt(tx, input.dentistId, startsAt);
    const slotId =
      existing ??
      (await insertManualSlot(tx, {
        dentistId: input.dentistId,
        startsAt,
        endsAt,
        createdBy: actor.id,
        now,
      }));
    if (!slotId) throw new AppError("CONFLICT", "Esa hora ya se está ofreciendo.");
    const slot = (await lockSlot(tx, slotId))!;
    let offeredTo: string | null = null;
    if (input.entryId) {
      const entry = await entryById(tx, input.entryId);
      if (!entry || entry.status !== "activa") {
        throw new AppError("VALIDATION", "Ese paciente ya no está en la lista de espera.");
      }
      if (
        !(await offerTo(
          tx,
          { ...slot, dentistName: await dentistNameOf(tx, slot.dentistId) },
          entry,
          slot.batchesSent + 1,
          now,
          baseUrl.replace(/\/+$/, ""),
          actor.id,
        ))
      ) {
        throw new AppError("CONFLICT", "A ese paciente ya se le ofreció esta hora.");
      }
      // That patient has the batch interval to themselves before the others are offered it.
      await scheduleNextBatch(tx, slot.id, nextBatchAt(now), true);
      offeredTo = entry.patientId;
    } else {
      await offerSlotNow(tx, slotId, now);
    }
    await recordStaffAudit(tx, {
      actorId: actor.id,
      actorRoles: actor.roles,
      action: "waitlist.slot_offered",
      targetUserId: offeredTo,
      details: {
        slotId,
        dentistId: input.dentistId,
        startsAt: startsAt.toISOString(),
        entryId: input.entryId ?? null,
      },
      ip: actor.ip,
    });
    return { slotId };
  });
}

/** The admin page: two weeks of the waitlist per day, the dentists and the active entries to offer to by hand. */
export async function adminWaitlistPage(db: Database, now = new Date()) {
  const today = clinicDate(now);
  const [days, dentists, entries] = [
    await staffWaitlistDays(db, { from: today, days: 14 }),
    await listDentists(db),
    await activeEntries(db),
  ];
  return {
    today,
    days,
    dentists: dentists.map((dentist) => ({
      id: dentist.id,
      name: dentistName(dentist.firstName, dentist.lastName, dentist.title),
    })),
    entries: entries.map((entry) => ({
      id: entry.id,
      label: `${`${entry.patientFirstName} ${entry.patientLastName}`.trim()} · ${entry.treatmentName} · hasta el ${formatDate(entry.untilDate)}`,
    })),
  };
}
