import type { Database } from "~/db/client.server";
import { appointmentStatusLabel, treatmentNameOrFallback } from "~/domain/appointment-status";
import { clinicDayBounds, clinicTime } from "~/domain/clinic-time";
import { formatChileanPhone, formatDayHeading } from "~/domain/format";
import {
  DEFAULT_NO_SHOW_RULE,
  markNoShowDecision,
  noShowCallMessage,
  noShowCountText,
  noShowDepositNotice,
  noShowWindowStart,
  reachesNoShowThreshold,
  statusAfterUndo,
  undoNoShowDecision,
  type NoShowRule,
} from "~/domain/no-shows";
import { hasAdminRole } from "~/domain/roles";
import { clinicFacts } from "~/lib/base/env.server";
import { AppError } from "~/lib/base/errors";
import { logger } from "~/lib/base/logger.server";
import type { NoShowDay, NoShowRow, NoShowSettingsView } from "./no-show-dto";
import {
  clearNoShow,
  countNoShows,
  dayAppointments,
  deleteNoShowFlag,
  countNoShowsOf,
  findDepositFlags,
  findNoShowFlag,
  findSetting,
  lockAppointment,
  recordNoShowAudit,
  refreshAllNoShowFlags,
  setNoShow,
  upsertNoShowFlag,
  upsertSetting,
  type AuditActor,
  type Tx,
} from "./no-show-repository.server";
import { NO_SHOW_SETTINGS_KEY, noShowRuleSchema } from "./no-show-schema";
import { dentistDisplayName } from "~/domain/dentist-name";

/**
 * No-shows (issue 23, ADR 042): staff mark 'No asistió' and may undo it the same day; the count per patient over 12
 * months; the clinic's rule that, from N no-shows on, online booking asks a deposit (payments on: the patient's deposit
 * flag, written in the mark's transaction) or a call to the clinic (payments off).
 */

export type NoShowActor = AuditActor;

export interface NoShowOptions {
  /** Whether online payment is on (Webpay configured or the demo's fake): the deposit flag is written only then. */
  paymentsOn: boolean;
  now?: Date;
}

const NOT_FOUND = "No encontramos esa cita.";

/** The clinic's rule; a stored value that no longer validates falls back to the default. */
export async function loadNoShowRule(db: Pick<Database, "select">): Promise<NoShowRule> {
  const stored = await findSetting(db, NO_SHOW_SETTINGS_KEY);
  if (stored === null) return DEFAULT_NO_SHOW_RULE;
  const parsed = noShowRuleSchema.safeParse(stored);
  if (!parsed.success) {
    logger.warn("stored no-show rule is invalid; using the default");
    return DEFAULT_NO_SHOW_RULE;
  }
  return parsed.data;
}

/** No-shows per patient over the last 12 months (clinic calendar) up to `now`. */
export async function noShowCounts(
  db: Pick<Database, "select">,
  patientIds: readonly string[],
  now = new Date(),
): Promise<Map<string, number>> {
  return countNoShows(db, patientIds, noShowWindowStart(now), now);
}

export async function noShowCountOf(db: Pick<Database, "select">, patientId: string, now = new Date()) {
  return countNoShowsOf(db, patientId, noShowWindowStart(now), now);
}

/** A dentist reaches only their own appointments; an admin every one. Anything else reads as unknown (404). */
function assertMayTouch<T extends { dentistId: string }>(actor: NoShowActor, appointment: T | null): T {
  if (!appointment) throw new AppError("NOT_FOUND", NOT_FOUND);
  if (hasAdminRole(actor.roles)) return appointment;
  if (actor.roles.includes("dentista") && appointment.dentistId === actor.id) return appointment;
  throw new AppError("NOT_FOUND", NOT_FOUND);
}

/** Brings the patient's deposit flag in line with their count, inside the mark's transaction (payments on only). */
async function syncFlag(
  tx: Tx,
  patientId: string,
  count: number,
  rule: NoShowRule,
  options: NoShowOptions,
  at: Date,
) {
  if (!options.paymentsOn) return false;
  if (reachesNoShowThreshold(count, rule)) {
    await upsertNoShowFlag(tx, patientId, count, rule.threshold, at);
    return true;
  }
  await deleteNoShowFlag(tx, patientId);
  return false;
}

export interface NoShowOutcome {
  patientId: string;
  count: number;
  depositRequired: boolean;
}

/**
 * Marks the appointment 'No asistió'. No fee charge is created: the 100% no-show fee of the policy (ADR 005) stays a
 * decision of the clinic at the desk (ADR 042).
 */
export async function markNoShow(
  db: Database,
  actor: NoShowActor,
  appointmentId: string,
  options: NoShowOptions,
): Promise<NoShowOutcome> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const appointment = assertMayTouch(actor, await lockAppointment(tx, appointmentId));
    const decision = markNoShowDecision(appointment, now);
    if (!decision.allowed) throw new AppError("CONFLICT", decision.reason);
    await setNoShow(tx, appointment.id, actor.id, now);
    const rule = await loadNoShowRule(tx);
    const count = await noShowCountOf(tx, appointment.patientId, now);
    const depositRequired = await syncFlag(tx, appointment.patientId, count, rule, options, now);
    await recordNoShowAudit(
      tx,
      actor,
      "appointment.no_show",
      appointment.patientId,
      { appointmentId: appointment.id, count, depositRequired },
      now,
    );
    return { patientId: appointment.patientId, count, depositRequired };
  });
}

/** 'Deshacer': the same clinic day, back to confirmed or scheduled; the flag is cleared if now below the threshold. */
export async function undoNoShow(
  db: Database,
  actor: NoShowActor,
  appointmentId: string,
  options: NoShowOptions,
): Promise<NoShowOutcome> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const appointment = assertMayTouch(actor, await lockAppointment(tx, appointmentId));
    const decision = undoNoShowDecision(appointment, now);
    if (!decision.allowed) throw new AppError("CONFLICT", decision.reason);
    await clearNoShow(tx, appointment.id, statusAfterUndo(appointment.confirmedAt), now);
    const rule = await loadNoShowRule(tx);
    const count = await noShowCountOf(tx, appointment.patientId, now);
    const depositRequired = await syncFlag(tx, appointment.patientId, count, rule, options, now);
    await recordNoShowAudit(
      tx,
      actor,
      "appointment.no_show_undone",
      appointment.patientId,
      { appointmentId: appointment.id, count, depositRequired },
      now,
    );
    return { patientId: appointment.patientId, count, depositRequired };
  });
}

const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase("es-CL") + text.slice(1);

/**
 * One clinic day of appointments with each patient's count and the actions allowed at `now`: a dentist's own
 * (`dentistId`), or every dentist's (null, the admin's view).
 */
export async function noShowDay(
  db: Pick<Database, "select">,
  input: { date: string; dentistId: string | null; actionPath: string },
  now = new Date(),
): Promise<NoShowDay> {
  const rows = await dayAppointments(db, clinicDayBounds(input.date), input.dentistId);
  const [counts, rule] = await Promise.all([
    noShowCounts(
      db,
      rows.map((row) => row.patientId),
      now,
    ),
    loadNoShowRule(db),
  ]);
  return {
    date: input.date,
    heading: capitalize(formatDayHeading(input.date)),
    actionPath: input.actionPath,
    rows: rows.map((row): NoShowRow => {
      const count = counts.get(row.patientId) ?? 0;
      return {
        appointmentId: row.id,
        time: clinicTime(row.startsAt),
        startsAt: row.startsAt.toISOString(),
        patientName: `${row.patientFirstName} ${row.patientLastName}`.trim(),
        dentistName:
          input.dentistId === null
            ? dentistDisplayName({
                firstName: row.dentistFirstName,
                lastName: row.dentistLastName,
                title: row.dentistTitle,
              })
            : null,
        treatment: treatmentNameOrFallback(row.treatmentName),
        status: row.status,
        statusLabel: appointmentStatusLabel(row.status),
        noShowCount: count,
        noShowText: noShowCountText(count),
        repeat: reachesNoShowThreshold(count, rule),
        canMark: markNoShowDecision(row, now).allowed,
        canUndo: undoNoShowDecision(row, now).allowed,
      };
    }),
  };
}

/**
 * The dentist's agenda: their own appointments of one clinic day (today, or a recent day by
 * `dentistAttendanceDate`), posting to /dentista/inasistencias.
 */
export async function dentistNoShowDay(
  db: Pick<Database, "select">,
  dentistId: string,
  date: string,
  now = new Date(),
) {
  return noShowDay(db, { date, dentistId, actionPath: DENTIST_NO_SHOW_PATH }, now);
}

export const DENTIST_NO_SHOW_PATH = "/dentista/inasistencias";

/** The settings page's view. */
export async function noShowSettingsView(
  db: Pick<Database, "select">,
  paymentsOn: boolean,
): Promise<NoShowSettingsView> {
  const rule = await loadNoShowRule(db);
  return { ...rule, paymentsOn };
}

/** Saves the rule (validated again here), audits it, and re-syncs every patient's flag when payments are on. */
export async function saveNoShowRule(
  db: Database,
  actor: NoShowActor,
  rule: NoShowRule,
  options: NoShowOptions,
): Promise<NoShowRule> {
  if (!hasAdminRole(actor.roles))
    throw new AppError("FORBIDDEN", "Solo un administrador puede cambiar esta regla.");
  const valid = noShowRuleSchema.parse(rule);
  const now = options.now ?? new Date();
  await db.transaction(async (tx) => {
    const before = await loadNoShowRule(tx);
    await upsertSetting(tx, NO_SHOW_SETTINGS_KEY, { ...valid }, actor.id, now);
    if (options.paymentsOn) await refreshAllNoShowFlags(tx, valid, noShowWindowStart(now), now, now);
    await recordNoShowAudit(tx, actor, "settings.no_shows", null, { before, after: valid }, now);
  });
  return valid;
}

/**
 * What repeated no-shows do to this patient's online booking: with payments off, a refusal that asks them to call
 * (from the live count); with payments on, the notice of the deposit their flag asks. Null when nothing applies.
 */
export async function noShowBookingStatus(
  db: Pick<Database, "select">,
  patientId: string,
  paymentsOn: boolean,
  now = new Date(),
  /** The flag as findDepositFlags read it for this request already (Mis Citas), instead of reading it again. */
  known?: { noShow: { count: number | null } | null },
): Promise<{ kind: "blocked"; message: string } | { kind: "deposit"; message: string } | null> {
  if (paymentsOn) {
    const flag = known ? known.noShow : await findNoShowFlag(db, patientId);
    if (!flag) return null;
    const count = flag.count ?? (await noShowCountOf(db, patientId, now));
    return { kind: "deposit", message: noShowDepositNotice(count) };
  }
  const [rule, count] = await Promise.all([loadNoShowRule(db), noShowCountOf(db, patientId, now)]);
  if (!reachesNoShowThreshold(count, rule)) return null;
  return { kind: "blocked", message: noShowCallMessage(count, formatChileanPhone(clinicFacts().phone)) };
}

/** The patient's deposit flag, read once for the booking money and the no-shows' notice (Mis Citas). */
export function depositFlagsOf(db: Pick<Database, "select">, patientId: string) {
  return findDepositFlags(db, patientId);
}

/** Throws the refusal of online booking without payments (the booking service calls it before booking). */
export async function assertNoShowsAllowBooking(
  db: Pick<Database, "select">,
  patientId: string,
  paymentsOn: boolean,
  now = new Date(),
) {
  if (paymentsOn) return;
  const status = await noShowBookingStatus(db, patientId, false, now);
  if (status?.kind === "blocked") throw new AppError("CONFLICT", status.message);
}
