import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "~/db/client.server";
import { hotStatement } from "~/db/pglite-statements.server";
import {
  appointments,
  auditLog,
  clinicSettings,
  patientDepositFlags,
  treatmentsCatalog,
  users,
} from "~/db/schema";

/** No-shows' reads and writes (ADR 042): the mark on appointments, the rule in clinic_settings, the deposit flag. */

export type Tx = Pick<Database, "select" | "insert" | "update" | "delete" | "execute">;

/** Why this feature wrote a patient's deposit flag; a flag written for another reason is never touched here. */
export const NO_SHOW_FLAG_REASON = "no_shows";

export interface AuditActor {
  id: string;
  roles: readonly string[];
  ip: string;
}

export async function recordNoShowAudit(
  tx: Pick<Database, "insert">,
  actor: AuditActor,
  action: string,
  targetUserId: string | null,
  details: Record<string, unknown>,
  at: Date,
) {
  await tx.insert(auditLog).values({
    actorId: actor.id,
    actorRoles: actor.roles.join(","),
    action,
    targetUserId,
    details,
    ip: actor.ip,
    createdAt: at,
  });
}

/** One appointment, locked for the mark or its undo. */
export async function lockAppointment(tx: Pick<Database, "select">, appointmentId: string) {
  const [row] = await tx
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      dentistId: appointments.dentistId,
      status: appointments.status,
      startsAt: appointments.startsAt,
      confirmedAt: appointments.confirmedAt,
      noShowMarkedAt: appointments.noShowMarkedAt,
    })
    .from(appointments)
    .where(eq(appointments.id, appointmentId))
    .for("update")
    .limit(1);
  return row ?? null;
}

export async function setNoShow(
  tx: Pick<Database, "update">,
  appointmentId: string,
  actorId: string,
  at: Date,
) {
  await tx
    .update(appointments)
    .set({ status: "no_show", noShowMarkedAt: at, noShowMarkedBy: actorId, updatedAt: at })
    .where(eq(appointments.id, appointmentId));
}

export async function clearNoShow(
  tx: Pick<Database, "update">,
  appointmentId: string,
  status: string,
  at: Date,
) {
  await tx
    .update(appointments)
    .set({ status, noShowMarkedAt: null, noShowMarkedBy: null, updatedAt: at })
    .where(eq(appointments.id, appointmentId));
}

/** No-shows per patient among `patientIds` whose appointment started in [from, to). */
export async function countNoShows(
  db: Pick<Database, "select">,
  patientIds: readonly string[],
  from: Date,
  to: Date,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (patientIds.length === 0) return counts;
  const rows = await db
    .select({ patientId: appointments.patientId, count: sql<number>`count(*)`.mapWith(Number) })
    .from(appointments)
    .where(
      and(
        inArray(appointments.patientId, [...new Set(patientIds)]),
        eq(appointments.status, "no_show"),
        gte(appointments.startsAt, from),
        lt(appointments.startsAt, to),
      ),
    )
    .groupBy(appointments.patientId);
  for (const row of rows) counts.set(row.patientId, row.count);
  return counts;
}

export async function findSetting(db: Pick<Database, "select">, key: string): Promise<unknown> {
  const [row] = await settingRows(db, { key });
  return row?.value ?? null;
}

/** A hot statement (ADR 053): Mis Citas reads the no-show rule on every visit when payments are off. */
const settingRows = hotStatement("clinic_setting", (db) =>
  db
    .select({ value: clinicSettings.value })
    .from(clinicSettings)
    .where(eq(clinicSettings.key, sql.placeholder("key")))
    .limit(1),
);

/** One patient's no-shows in [from, to): countNoShows for one patient, as a hot statement (Mis Citas, per visit). */
export async function countNoShowsOf(
  db: Pick<Database, "select">,
  patientId: string,
  from: Date,
  to: Date,
): Promise<number> {
  const [row] = await noShowCountRows(db, { patientId, from, to });
  return row?.count ?? 0;
}

const noShowCountRows = hotStatement("patient_no_show_count", (db) =>
  db
    .select({ count: sql<number>`count(*)::int` })
    .from(appointments)
    .where(
      and(
        eq(appointments.patientId, sql.placeholder("patientId")),
        eq(appointments.status, "no_show"),
        gte(appointments.startsAt, sql.placeholder("from")),
        lt(appointments.startsAt, sql.placeholder("to")),
      ),
    ),
);

export async function upsertSetting(
  tx: Pick<Database, "insert">,
  key: string,
  value: Record<string, unknown>,
  actorId: string,
  at: Date,
) {
  await tx
    .insert(clinicSettings)
    .values({ key, value, updatedBy: actorId, updatedAt: at })
    .onConflictDoUpdate({ target: clinicSettings.key, set: { value, updatedBy: actorId, updatedAt: at } });
}

/** Sets the patient's flag for repeated no-shows; a flag the clinic set for another reason stays as it is. */
export async function upsertNoShowFlag(
  tx: Pick<Database, "insert">,
  patientId: string,
  count: number,
  threshold: number,
  at: Date,
) {
  const details = { count, threshold };
  await tx
    .insert(patientDepositFlags)
    .values({ patientId, required: true, reason: NO_SHOW_FLAG_REASON, details, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: patientDepositFlags.patientId,
      set: { required: true, details, updatedAt: at },
      setWhere: eq(patientDepositFlags.reason, NO_SHOW_FLAG_REASON),
    });
}

export async function deleteNoShowFlag(tx: Pick<Database, "delete">, patientId: string) {
  await tx
    .delete(patientDepositFlags)
    .where(
      and(eq(patientDepositFlags.patientId, patientId), eq(patientDepositFlags.reason, NO_SHOW_FLAG_REASON)),
    );
}

/** The patient's flag for repeated no-shows, if any: the count it was written with. */
/** The patient's deposit flag (one row at most: the patient is its key), whatever its reason. A hot statement. */
const depositFlagRows = hotStatement("patient_deposit_flag", (db) =>
  db
    .select({
      required: patientDepositFlags.required,
      reason: patientDepositFlags.reason,
      details: patientDepositFlags.details,
    })
    .from(patientDepositFlags)
    .where(eq(patientDepositFlags.patientId, sql.placeholder("patientId"))),
);

/**
 * One read of the deposit flag for both of its uses: whether the patient must leave a deposit (any reason, as
 * patientMustLeaveDeposit) and the no-shows' flag with its count (as findNoShowFlag).
 */
export async function findDepositFlags(
  db: Pick<Database, "select">,
  patientId: string,
): Promise<{ mustLeaveDeposit: boolean; noShow: { count: number | null } | null }> {
  const [row] = await depositFlagRows(db, { patientId });
  if (!row) return { mustLeaveDeposit: false, noShow: null };
  if (!row.required || row.reason !== NO_SHOW_FLAG_REASON)
    return { mustLeaveDeposit: row.required, noShow: null };
  const count = Number(row.details?.count);
  return { mustLeaveDeposit: true, noShow: { count: Number.isFinite(count) ? count : null } };
}

export async function findNoShowFlag(db: Pick<Database, "select">, patientId: string) {
  const [row] = await db
    .select({ details: patientDepositFlags.details })
    .from(patientDepositFlags)
    .where(
      and(
        eq(patientDepositFlags.patientId, patientId),
        eq(patientDepositFlags.reason, NO_SHOW_FLAG_REASON),
        eq(patientDepositFlags.required, true),
      ),
    )
    .limit(1);
  if (!row) return null;
  const count = Number(row.details?.count);
  return { count: Number.isFinite(count) ? count : null };
}

/**
 * Every patient's flag for repeated no-shows brought in line with the rule (after the admin changed it): set for
 * those at or above the threshold in [from, to), removed for the others. Two set-based statements.
 */
export async function refreshAllNoShowFlags(
  tx: Tx,
  rule: { enabled: boolean; threshold: number },
  from: Date,
  to: Date,
  at: Date,
) {
  const reason = NO_SHOW_FLAG_REASON;
  const window = sql`status = 'no_show' and starts_at >= ${from.toISOString()}::timestamptz and starts_at < ${to.toISOString()}::timestamptz`;
  if (!rule.enabled) {
    await tx.delete(patientDepositFlags).where(eq(patientDepositFlags.reason, reason));
    return;
  }
  await tx.execute(sql`
    delete from patient_deposit_flags f
    where f.reason = ${reason}
      and (select count(*) from appointments a where a.patient_id = f.patient_id and ${window}) < ${rule.threshold}`);
  await tx.execute(sql`
    insert into patient_deposit_flags (patient_id, required, reason, details, created_at, updated_at)
    select patient_id, true, ${reason},
           jsonb_build_object('count', count(*)::int, 'threshold', ${rule.threshold}::int),
           ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
    from appointments
    where ${window}
    group by patient_id
    having count(*) >= ${rule.threshold}
    on conflict (patient_id) do update
      set required = true, details = excluded.details, updated_at = excluded.updated_at
      where patient_deposit_flags.reason = ${reason}`);
}

const dentist = alias(users, "dentist");

/** The appointments of one clinic day [start, end), of one dentist or all, with patient, dentist and treatment. */
export async function dayAppointments(
  db: Pick<Database, "select">,
  range: { start: Date; end: Date },
  dentistId: string | null,
) {
  return db
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      dentistId: appointments.dentistId,
      startsAt: appointments.startsAt,
      status: appointments.status,
      noShowMarkedAt: appointments.noShowMarkedAt,
      patientFirstName: users.firstName,
      patientLastName: users.lastName,
      dentistFirstName: dentist.firstName,
      dentistLastName: dentist.lastName,
      dentistTitle: dentist.professionalTitle,
      treatmentName: treatmentsCatalog.name,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientId))
    .innerJoin(dentist, eq(dentist.id, appointments.dentistId))
    .leftJoin(treatmentsCatalog, eq(treatmentsCatalog.id, appointments.treatmentId))
    .where(
      and(
        gte(appointments.startsAt, range.start),
        lt(appointments.startsAt, range.end),
        dentistId === null ? undefined : eq(appointments.dentistId, dentistId),
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(dentist.lastName), asc(appointments.id))
    .limit(500);
}
