import { jobRuns } from "~/db/schema";
import type { Database } from "~/db/client.server";
import { addDays, clinicDate, startOfClinicDay } from "~/domain/clinic-time";
import type { PrivacyRight } from "~/domain/privacy";
import { clockLabel, DIGEST_DAYS, readClock } from "~/domain/privacy-clock";
import { UNVERIFIED_EXPIRY_MS } from "~/domain/privacy-verification";
import { kickOutboxWorker } from "~/features/outbox/outbox-worker.server";
import { clinicFacts, publicBaseUrl } from "~/lib/base/env.server";
import { logger } from "~/lib/base/logger.server";
import { digestMessage } from "./request-messages";
import { queueClinicEmail } from "./request-notifications.server";
import { addEvent, expireUnverified, openDueBy } from "./request-repository.server";

export const DIGEST_JOB = "privacy-digest";

/**
 * The privacy contact's daily e-mail (CLINIC_PRIVACY_EMAIL) while any open request is due within 5 days or
 * overdue. The Santiago date is claimed in `job_runs` (primary key job + period) in the same transaction as the
 * e-mail's outbox row, so several instances, or several runs in one day, send it once. A day with nothing due
 * claims nothing: a request that becomes due later that day still gets its e-mail.
 */
export async function sendPrivacyDigest(
  db: Database,
  now = new Date(),
): Promise<"sent" | "nothing_due" | "already_sent"> {
  const today = clinicDate(now);
  const rows = await openDueBy(db, startOfClinicDay(addDays(today, DIGEST_DAYS + 1)));
  if (rows.length === 0) return "nothing_due";
  const sent = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(jobRuns)
      .values({
        job: DIGEST_JOB,
        period: today,
        startedAt: now,
        finishedAt: now,
        summary: { requests: rows.length },
      })
      .onConflictDoNothing()
      .returning({ period: jobRuns.period });
    if (!claimed) return false;
    const message = digestMessage(
      clinicFacts(),
      rows.map((row) => {
        const reading = readClock(row.dueAt!, now);
        return {
          id: row.id,
          right: row.right as PrivacyRight,
          dueDate: reading.dueDate,
          label: clockLabel(reading),
        };
      }),
      `${publicBaseUrl()}/admin/privacidad?estado=abiertas`,
    );
    await queueClinicEmail(tx, { idempotencyKey: `${DIGEST_JOB}:${today}`, message });
    return true;
  });
  if (!sent) return "already_sent";
  kickOutboxWorker();
  logger.info({ requests: rows.length, period: today }, "privacy digest queued");
  return "sent";
}

/** Unconfirmed public requests whose proof ran out long ago are closed as `expired` (nothing was processed). */
export async function expireStaleRequests(db: Database, now = new Date()): Promise<number> {
  const expired = await db.transaction(async (tx) => {
    const rows = await expireUnverified(tx, new Date(now.getTime() - UNVERIFIED_EXPIRY_MS));
    for (const row of rows) await addEvent(tx, { requestId: row.id, kind: "expired", at: now });
    return rows.length;
  });
  if (expired > 0) logger.info({ expired }, "unconfirmed privacy requests expired");
  return expired;
}
