import { getDb } from "~/db/client.server";
import { queueDueReminders } from "~/features/reminders/reminder-service.server";
import { logger } from "~/lib/logger.server";

/**
 * How often the reminder job looks for due appointments (issue 9: at least every minute). A reminder is queued at
 * most this long after its due time; the outbox worker then sends it within seconds.
 */
export const REMINDER_CHECK_MS = 30_000;

interface ReminderJob {
  timer: NodeJS.Timeout;
  run?: Promise<void>;
}

const state = globalThis as typeof globalThis & { __clinicaReminders?: ReminderJob };

/** One pass: queues every due reminder. Safe on every instance at once (see `queueDueReminders`). */
export async function runRemindersOnce(now = new Date()): Promise<number> {
  return queueDueReminders(await getDb(), now);
}

/** Runs once at start, then every `REMINDER_CHECK_MS`; a pass still running is not overlapped. */
export function startReminderJob() {
  if (state.__clinicaReminders) return;
  const run = () => {
    if (job.run) return;
    job.run = runRemindersOnce()
      .then(
        () => undefined,
        (error: unknown) => logger.error({ err: error }, "reminder job failed"),
      )
      .finally(() => {
        job.run = undefined;
      });
  };
  const job: ReminderJob = { timer: setInterval(run, REMINDER_CHECK_MS) };
  job.timer.unref();
  state.__clinicaReminders = job;
  run();
}

/** Stops the job and waits for a pass in progress, so that it ends before the database closes. */
export async function stopReminderJob(): Promise<void> {
  const job = state.__clinicaReminders;
  if (!job) return;
  clearInterval(job.timer);
  state.__clinicaReminders = undefined;
  await job.run;
}
