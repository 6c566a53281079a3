import { getDb } from "~/db/client.server";
import { runDailyRetention } from "~/features/privacy/retention-sweep.server";
import { intervalJob } from "./interval-job.server";

/**
 * The daily retention sweep (ADR 038). Every instance looks once an hour (and at start); the first to claim the day
 * (America/Santiago) in `job_runs` sweeps it, the others find it claimed and do nothing.
 */
const LOOK_EVERY_MS = 60 * 60_000;

const retentionJob = intervalJob({
  key: "retention",
  everyMs: LOOK_EVERY_MS,
  runAtStart: true,
  whileRunning: "skip",
  failureMessage: "retention sweep failed",
  run: async (job) => runDailyRetention(await getDb(), new Date(), { shouldStop: () => job.stopping }),
});

export function startRetentionJob() {
  retentionJob.start();
}

/** Stops the hourly look and waits for a sweep in progress to end its batch. */
export async function stopRetentionJob(): Promise<void> {
  await retentionJob.stop();
}
