import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import type { Range } from "./analytics-repository.server";

/**
 * The engagement loop's figures for a period (issue 23, ADR 042), one statement over appointments, freed slots and
 * form assignments. An appointment belongs to the period by its start; a freed slot by when it was freed.
 * - Confirmation: appointments that kept their slot (not cancelled, not a booking waiting for or released without its
 *   deposit) and have `confirmed_at`.
 * - No-show: the same appointments that have started by `now`, marked 'No asistió'.
 * - Cancelled under 24 h: cancelled less than 24 hours before the start, among every appointment of the period
 *   except deposit holds that never became bookings.
 * - Refilled from the waitlist: freed slots taken through an offer, and the median minutes from freed to taken.
 * - Forms before the visit: assignments of the period's started appointments with a submission before the start.
 */

export interface EngagementFigures {
  kept: number;
  confirmed: number;
  started: number;
  noShows: number;
  booked: number;
  lateCancellations: number;
  freedSlots: number;
  refilled: number;
  medianRefillMinutes: number | null;
  formsDue: number;
  formsBeforeVisit: number;
}

const num = (value: unknown) => Number(value ?? 0);

export async function engagementFigures(db: Database, range: Range, now: Date): Promise<EngagementFigures> {
  const start = sql`${range.start.toISOString()}::timestamptz`;
  const end = sql`${range.end.toISOString()}::timestamptz`;
  const at = sql`${now.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    with period_appointments as (
      select id, status, starts_at, confirmed_at, cancelled_at
      from appointments
      where starts_at >= ${start} and starts_at < ${end}
    ),
    kept as (
      select * from period_appointments where status not in ('cancelled', 'pending_payment', 'payment_failed')
    )
    select
      (select count(*) from kept) as kept,
      (select count(*) from kept where confirmed_at is not null) as confirmed,
      (select count(*) from kept where starts_at <= ${at}) as started,
      (select count(*) from kept where starts_at <= ${at} and status = 'no_show') as no_shows,
      (select count(*) from period_appointments where status not in ('pending_payment', 'payment_failed')) as booked,
      (select count(*) from period_appointments
         where status = 'cancelled' and cancelled_at is not null
           and cancelled_at > starts_at - interval '24 hours') as late_cancellations,
      (select count(*) from freed_slots where created_at >= ${start} and created_at < ${end}) as freed_slots,
      (select count(*) from freed_slots
         where created_at >= ${start} and created_at < ${end} and status = 'tomada' and taken_at is not null) as refilled,
      (select percentile_cont(0.5) within group (order by extract(epoch from (taken_at - created_at)) / 60)
         from freed_slots
         where created_at >= ${start} and created_at < ${end} and status = 'tomada' and taken_at is not null)
        as median_refill_minutes,
      (select count(*) from form_assignments fa join kept a on a.id = fa.appointment_id
         where a.starts_at <= ${at} and fa.status <> 'anulado') as forms_due,
      (select count(*) from form_assignments fa join kept a on a.id = fa.appointment_id
         where a.starts_at <= ${at} and fa.status <> 'anulado'
           and exists (select 1 from form_submissions s
                       where s.assignment_id = fa.id and s.submitted_at < a.starts_at)) as forms_before_visit`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {};
  const median = row.median_refill_minutes;
  return {
    kept: num(row.kept),
    confirmed: num(row.confirmed),
    started: num(row.started),
    noShows: num(row.no_shows),
    booked: num(row.booked),
    lateCancellations: num(row.late_cancellations),
    freedSlots: num(row.freed_slots),
    refilled: num(row.refilled),
    medianRefillMinutes: median === null || median === undefined ? null : Number(median),
    formsDue: num(row.forms_due),
    formsBeforeVisit: num(row.forms_before_visit),
  };
}
