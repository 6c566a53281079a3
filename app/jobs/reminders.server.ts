import { getDb } from "~/db/client.server";
import { queueDueReminders } from "~/features/reminders/reminder-service.server";
import { intervalJob } from "./interval-job.server";

/**
 * How often the reminder job looks for due appointments (at least every minute, so that a reminder is never late by
 * more than that). A reminder is queued at most this long after its due time; the outbox worker then sends it
 * within seconds.
 */
export const REMINDER_CHECK_MS = 30_000;

/** One pass: queues every due reminder. Safe on every instance at once (see `queueDueReminders`). */
export async function runRemindersOnce(now = new Date()): Promise<number> {
  return queueDueReminders(await getDb(), now);
}

/** Runs once at start, then every `REMINDER_CHECK_MS`; a pass still running is not overlapped. */
const reminderJob = intervalJob({
  key: "reminders",
  everyMs: REMINDER_CHECK_MS,
  runAtStart: true,
  whileRunning: "skip",
  failureMessage: "reminder job failed",
  run: () => runRemindersOnce(),
});

export function startReminderJob() {
  reminderJob.start();
}

/** Stops the job and waits for a pass in progress, so that it ends before the database closes. */
export async function stopReminderJob(): Promise<void> {
  await reminderJob.stop();
}
